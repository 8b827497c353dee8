"""On a GPU: verify's verdicts on the smoke tasks, launch capture that reproduces the JIT's
kernel (same PTX), and containment of a crashing candidate."""
from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="needs torch and an NVIDIA GPU")

from strata_agent.compile_runner import run_compile  # noqa: E402
from strata_agent.errors import StrataError  # noqa: E402
from strata_agent.task_runner import run_task, verify  # noqa: E402

SMOKE = Path(__file__).resolve().parents[3] / "suites" / "tasks-smoke"


def quiet(message, **extra):
    pass


def verdict(name: str, **params) -> dict:
    return verify({"task": str(SMOKE / f"{name}.py"), **params}, quiet)


def reason_kinds(result: dict) -> set[str]:
    return {reason["kind"] for reason in result["reasons"]}


@pytest.mark.parametrize("name", ["vector_add", "softmax", "matmul_fp16"])
def test_good_task_passes(name):
    result = verdict(name)
    assert result["verdict"] == "pass", result["reasons"]
    assert len(result["checks"]) >= 3 * 2  # three draws, default + one extra shape
    assert {check["order"] for check in result["checks"]} == {"reference_first",
                                                              "candidate_first"}
    errors = [out["rel_error"] for check in result["checks"] for out in check["outputs"]]
    assert max(errors) < (1e-2 if name == "matmul_fp16" else 1e-4)


@pytest.mark.parametrize("name, kind", [
    ("cheat_reference_op", "torch_compute_in_candidate"),
    ("cheat_returns_input", "output_aliases_input"),
    ("cheat_cached_output", "output_reused_across_calls"),
    ("cheat_no_triton", "no_triton_launch"),
    ("cheat_side_stream", "non_default_stream"),
    ("wrong_off_by_one", ("non_finite_output", "wrong_result")),  # NaN if the poison held
    ("wrong_reduction_axis", "wrong_result"),
    ("wrong_nan_softmax", "non_finite_output"),
])
def test_bad_task_fails_for_its_reason(name, kind):
    result = verdict(name)
    assert result["verdict"] == "fail"
    accepted = {kind} if isinstance(kind, str) else set(kind)
    assert accepted & reason_kinds(result), result["reasons"]


@pytest.mark.parametrize("name", ["vector_add", "matmul_fp16"])
def test_captured_spec_reproduces_the_jit_kernel(name, tmp_path):
    captured = run_task({"task": str(SMOKE / f"{name}.py")}, quiet)
    kernel = captured["kernels"][0]
    assert kernel["launches"] == 1 and kernel["problems"] == []
    compiled = run_compile({"source_path": kernel["source_path"], "spec": kernel["spec"],
                            "work_dir": str(tmp_path), "pass_dumps": False}, quiet)
    import hashlib
    ptx = Path(compiled["artifacts"]["ptx"]["path"]).read_text()
    assert hashlib.sha256(ptx.encode()).hexdigest() == kernel["ptx_sha256"]
    if name == "matmul_fp16":
        assert kernel["spec"]["equal_to_1"] == ["stride_ak", "stride_bn", "stride_cn"]
        assert kernel["grid"] == [32, 32, 1]


def test_out_of_bounds_candidate_is_contained():
    result = verdict("crash_out_of_bounds")
    assert result["verdict"] == "fail"
    kinds = reason_kinds(result)
    assert kinds & {"candidate_raised", "cuda_error", "worker_killed", "worker_crashed"}, kinds
    with pytest.raises(StrataError):
        run_task({"task": str(SMOKE / "crash_out_of_bounds.py")}, quiet)
    # The next candidate runs normally.
    assert verdict("vector_add")["verdict"] == "pass"


KEPT_KERNEL_TASK = '''
import torch
import triton
import triton.language as tl

N = 4099
_kept = {}


@triton.jit
def double_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


class Model(torch.nn.Module):
    def forward(self, x):
        return x * 2


class ModelNew(torch.nn.Module):
    """Keeps the CompiledKernel of the first launch and launches it directly afterwards, as
    libraries with their own kernel cache do: later calls never reach JITFunction.run."""
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, 1024), 1, 1)
        if "k" not in _kept:
            _kept["k"] = double_kernel[grid](x, out, n, BLOCK=1024)
        else:
            _kept["k"][grid](x, out, n, 1024)
        return out


def get_inputs():
    return [torch.randn(N, device="cuda")]


def get_init_inputs():
    return []
'''


def test_launches_of_a_kept_compiled_kernel_are_seen(tmp_path):
    task = tmp_path / "kept_kernel.py"
    task.write_text(KEPT_KERNEL_TASK)
    result = verify({"task": str(task)}, quiet)
    assert result["verdict"] == "pass", result["reasons"]
    assert "no_triton_launch" not in reason_kinds(result)
