"""Spec derivation of bench/corpus/collect.py on a kernel written here: the capture path (Triton's
binder through a recording JITFunction.run, nothing launched) and the guess path (signature)."""
import os
import sys

import pytest

triton = pytest.importorskip("triton")
torch = pytest.importorskip("torch")
import triton.language as tl  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "agent"))
import collect  # noqa: E402


@triton.jit
def scale_rows(src_ptr, dst_ptr, n_cols, stride_row, eps: float, BLOCK_SIZE: tl.constexpr,
               HAS_BIAS: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK_SIZE)
    values = tl.load(src_ptr + row * stride_row + offsets, mask=offsets < n_cols)
    tl.store(dst_ptr + row * stride_row + offsets, values * eps, mask=offsets < n_cols)


@triton.autotune(configs=[triton.Config({"BLOCK_SIZE": 256}, num_warps=8, num_stages=2),
                          triton.Config({"BLOCK_SIZE": 512}, num_warps=4)], key=["n_cols"])
@triton.jit
def tuned_rows(src_ptr, dst_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    tl.store(dst_ptr + offsets, tl.load(src_ptr + offsets, mask=offsets < n_cols))


def test_guess_path_types_pointers_ints_floats_and_constexprs():
    jit_fn, configs = collect.unwrap(scale_rows)
    spec = collect.guess_spec(jit_fn, configs)
    assert spec["signature"] == {"src_ptr": "*fp32", "dst_ptr": "*fp32", "n_cols": "i32",
                                 "stride_row": "i32", "eps": "fp32",
                                 "BLOCK_SIZE": "constexpr", "HAS_BIAS": "constexpr"}
    assert spec["constexprs"] == {"BLOCK_SIZE": 1024, "HAS_BIAS": False}
    assert set(spec["divisibility_16"]) == {"src_ptr", "dst_ptr"}
    assert spec["target"] == "sm_90"


def test_guess_path_takes_the_first_autotune_config():
    jit_fn, configs = collect.unwrap(tuned_rows)
    assert jit_fn.fn.__name__ == "tuned_rows"
    spec = collect.guess_spec(jit_fn, configs)
    assert spec["constexprs"] == {"BLOCK_SIZE": 256}
    assert spec["options"] == {"num_warps": 8, "num_stages": 2}


def test_capture_path_records_the_binders_specialization_without_launching():
    src = torch.randn(4, 100, dtype=torch.float16)
    dst = torch.empty_like(src)

    def wrapper():  # what a library's python wrapper does
        scale_rows[(src.shape[0],)](src, dst, src.shape[1], src.stride(1), 0.5,
                                    BLOCK_SIZE=128, HAS_BIAS=True, num_warps=2)

    records = collect.capture_specs(wrapper)
    assert len(records) == 1
    spec = records[0]["spec"]
    assert spec["signature"]["src_ptr"] == "*fp16"
    assert spec["signature"]["n_cols"] == "i32"
    assert spec["constexprs"] == {"BLOCK_SIZE": 128, "HAS_BIAS": True}
    # stride(1) == 1 of a contiguous tensor: the JIT folds it, the spec lists it in equal_to_1
    assert spec["equal_to_1"] == ["stride_row"]
    assert "n_cols" not in spec["divisibility_16"]  # 100 is not a multiple of 16
    assert spec["options"]["num_warps"] == 2
    assert torch.count_nonzero(dst) >= 0  # nothing was launched, dst untouched is fine
