"""Planted cause: every program adds its partial sums into the same output row with atomics, one
atomic per loop iteration (atomics contention)."""
import triton
import triton.language as tl


@triton.jit
def split_k_sum_kernel(x_ptr, out_ptr, STEPS: tl.constexpr, W: tl.constexpr):
    cols = tl.arange(0, W)
    start = tl.program_id(0) * STEPS
    for s in range(0, STEPS):
        v = tl.load(x_ptr + (start + s) * W + cols)
        tl.atomic_add(out_ptr + cols, v)
