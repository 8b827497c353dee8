"""Softmax of each row, the whole row in one block: reductions (max, sum) on the vector unit."""
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * row_stride + cols, mask=mask, other=-float("inf"))
    shifted = x - tl.max(x, axis=0)
    numerator = tl.exp(shifted)
    result = numerator / tl.sum(numerator, axis=0)
    tl.store(out_ptr + row * row_stride + cols, result, mask=mask)
