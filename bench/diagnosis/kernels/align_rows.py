"""Planted cause: a row-wise copy with a run-time row length `n_cols` that is not known
divisible by 16: the column mask forces scalar accesses (alignment / vectorization)."""
import triton
import triton.language as tl


@triton.jit
def copy_rows_kernel(inp, outp, n_cols, ROW_STRIDE: tl.constexpr, BLOCK_C: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)
    keep = cols < n_cols
    base = row * ROW_STRIDE
    vals = tl.load(inp + base + cols, mask=keep, other=0.0)
    tl.store(outp + base + cols, vals * 2.0, mask=keep)
