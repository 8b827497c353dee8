"""Planted cause: a row maximum that reads one element per loop iteration (a scalar load in a
loop) instead of loading the row as a tile."""
import triton
import triton.language as tl


@triton.jit
def row_max_kernel(x_ptr, out_ptr, W: tl.constexpr):
    row = tl.program_id(0)
    best = float("-inf")
    for j in range(0, W):
        best = tl.maximum(best, tl.load(x_ptr + row * W + j))
    tl.store(out_ptr + row, best)
