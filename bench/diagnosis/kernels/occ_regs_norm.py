"""Planted cause: a normalisation of 8192-wide rows by 4 warps that keeps the row, its centred
copy and the output live (64 values each per thread): about 200 registers per thread, so only
two CTAs (8 warps) fit on an SM (low occupancy: registers)."""
import triton
import triton.language as tl


@triton.jit
def norm_rows_kernel(x_ptr, w_ptr, y_ptr, eps, W: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, W)
    x = tl.load(x_ptr + row * W + c)
    w = tl.load(w_ptr + c)
    mu = tl.sum(x, axis=0) / W
    d = x - mu
    var = tl.sum(d * d, axis=0) / W
    tl.store(y_ptr + row * W + c, d * tl.rsqrt(var + eps) * w + x)
