"""Planted cause: a row kernel whose per-thread working set needs so many registers that only
one 8-warp CTA fits on an SM (low occupancy: registers)."""
import triton
import triton.language as tl


@triton.jit
def row_stats_kernel(x_ptr, mean_ptr, var_ptr, out_ptr, W: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, W)
    x = tl.load(x_ptr + row * W + c)
    e = tl.exp(x)
    s = tl.sigmoid(x)
    m = tl.sum(x, axis=0) / W
    v = tl.sum((x - m) * (x - m), axis=0) / W
    tl.store(mean_ptr + row, m)
    tl.store(var_ptr + row, v)
    tl.store(out_ptr + row * W + c, (x - m) * e / (s + v))
