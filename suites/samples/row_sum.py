"""Row sums of a 2-D fp32 matrix: out[r] = sum(x[r, :]), one row per program.

Walks the row in BLOCK-wide chunks, accumulating a vector and reducing it once at the end.
"""
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = x_ptr + row * row_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(row_ptr + cols, mask=cols < n_cols, other=0.0)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + row, total)
