"""On a GPU: the samples compute the right thing, and the agent's spec compile is the kernel the
JIT builds for a matching launch (same specialization -> same PTX)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="needs torch and an NVIDIA GPU")
triton = pytest.importorskip("triton")

from strata_agent.compile_runner import run_compile  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[3] / "suites" / "samples"


def load_sample(name: str):
    location = importlib.util.spec_from_file_location(f"gpu_sample_{name}", SAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(location)
    location.loader.exec_module(module)
    return module


def agent_ptx(name: str, variant: str, work_dir) -> str:
    spec = json.loads((SAMPLES / f"{name}.{variant}.spec.json").read_text())
    result = run_compile({"source_path": str(SAMPLES / f"{name}.py"), "spec": spec,
                          "work_dir": str(work_dir), "pass_dumps": False},
                         lambda message, **_: None)
    with open(result["artifacts"]["ptx"]["path"]) as handle:
        return handle.read()


def assert_same_kernel(jit_kernel, name, variant, tmp_path):
    assert jit_kernel.asm["ptx"] == agent_ptx(name, variant, tmp_path), \
        f"{name}.{variant}: the spec does not reproduce the JIT's specialization"


@pytest.mark.parametrize("variant, n", [("aligned", 1 << 20), ("unaligned", (1 << 20) + 3)])
def test_vector_add(variant, n, tmp_path):
    module = load_sample("vector_add")
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.full_like(x, float("nan"))
    kernel = module.add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024,
                                                        num_warps=4, num_stages=3)
    torch.testing.assert_close(out, x + y)
    assert_same_kernel(kernel, "vector_add", variant, tmp_path)


def test_softmax(tmp_path):
    module = load_sample("softmax")
    x = torch.randn(512, 1024, device="cuda")
    out = torch.full_like(x, float("nan"))
    kernel = module.softmax_kernel[(x.shape[0],)](out, x, x.stride(0), out.stride(0), x.shape[1],
                                                  BLOCK=1024, num_warps=4, num_stages=3)
    torch.testing.assert_close(out, torch.softmax(x, dim=1))
    assert_same_kernel(kernel, "softmax", "default", tmp_path)


def test_layernorm(tmp_path):
    module = load_sample("layernorm")
    rows, cols = 256, 4096
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float16)
    weight = torch.randn(cols, device="cuda")
    bias = torch.randn(cols, device="cuda")
    y = torch.empty_like(x)
    mean = torch.empty(rows, device="cuda")
    rstd = torch.empty(rows, device="cuda")
    kernel = module.layernorm_fwd_kernel[(rows,)](x, y, weight, bias, mean, rstd, x.stride(0),
                                                  cols, 1e-5, BLOCK=1024, num_warps=8,
                                                  num_stages=3)
    expected = torch.nn.functional.layer_norm(x.float(), (cols,), weight, bias, 1e-5)
    torch.testing.assert_close(y.float(), expected, atol=2e-2, rtol=1e-2)
    torch.testing.assert_close(mean, x.float().mean(dim=1), atol=1e-4, rtol=1e-4)
    assert_same_kernel(kernel, "layernorm", "default", tmp_path)


def test_row_sum(tmp_path):
    module = load_sample("row_sum")
    x = torch.randn(256, 4096, device="cuda")
    out = torch.full((256,), float("nan"), device="cuda")
    kernel = module.row_sum_kernel[(x.shape[0],)](x, out, x.stride(0), x.shape[1], BLOCK=1024,
                                                  num_warps=4, num_stages=3)
    torch.testing.assert_close(out, x.sum(dim=1), atol=1e-3, rtol=1e-4)
    assert_same_kernel(kernel, "row_sum", "default", tmp_path)


@pytest.mark.parametrize("variant, block, warps", [("default", (128, 128, 64), 8),
                                                   ("big_spill", (256, 256, 64), 4)])
def test_matmul(variant, block, warps, tmp_path):
    module = load_sample("matmul")
    M, N, K = 1024, 768, 512
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    block_m, block_n, block_k = block
    grid = (triton.cdiv(M, block_m) * triton.cdiv(N, block_n),)
    kernel = module.matmul_kernel[grid](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
        c.stride(1), BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k, GROUP_M=8,
        num_warps=warps, num_stages=3)
    expected = (a.double() @ b.double()).float()
    torch.testing.assert_close(c.float(), expected, atol=5e-2, rtol=1e-2)
    assert_same_kernel(kernel, "matmul", variant, tmp_path)


def test_info_sees_the_gpu():
    from strata_agent.info import info_result
    gpus = info_result()["gpus"]
    assert gpus and all(gpu["target"].startswith("sm_") for gpu in gpus)
