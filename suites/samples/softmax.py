"""Row-wise softmax, one row per program; the whole row fits in one block."""
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                   BLOCK: tl.constexpr):
    row = tl.program_id(0)
    row_start = in_ptr + row * in_row_stride
    col_offsets = tl.arange(0, BLOCK)
    mask = col_offsets < n_cols
    row_values = tl.load(row_start + col_offsets, mask=mask, other=-float("inf"))
    # Subtract the maximum for numerical stability.
    shifted = row_values - tl.max(row_values, axis=0)
    numerator = tl.exp(shifted)
    denominator = tl.sum(numerator, axis=0)
    result = numerator / denominator
    out_start = out_ptr + row * out_row_stride
    tl.store(out_start + col_offsets, result, mask=mask)
