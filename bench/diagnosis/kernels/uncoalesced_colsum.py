"""Planted cause: each program sums one column; the tile walks down the rows, so consecutive
lanes read addresses ROW_LEN elements apart (uncoalesced access)."""
import triton
import triton.language as tl


@triton.jit
def column_sum_kernel(m_ptr, out_ptr, ROWS: tl.constexpr, ROW_LEN: tl.constexpr, BR: tl.constexpr):
    col = tl.program_id(0)
    acc = tl.zeros((BR,), dtype=tl.float32)
    for r0 in range(0, ROWS, BR):
        rr = r0 + tl.arange(0, BR)
        acc += tl.load(m_ptr + rr * ROW_LEN + col)
    tl.store(out_ptr + col, tl.sum(acc, axis=0))
