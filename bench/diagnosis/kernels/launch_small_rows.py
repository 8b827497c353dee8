"""Planted cause (needs measurement): a row sum launched on 8 rows of 256: the whole kernel takes
about as long as its launch (launch-bound)."""
import triton
import triton.language as tl


@triton.jit
def few_rows_sum_kernel(x_ptr, out_ptr, W: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, W)
    tl.store(out_ptr + r, tl.sum(tl.load(x_ptr + r * W + cols), axis=0))
