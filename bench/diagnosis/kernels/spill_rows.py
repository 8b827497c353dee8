"""Planted cause: a row kernel that keeps a 16384-element fp32 row and its square live in one
warp (512 values per thread): ptxas spills (register spills)."""
import triton
import triton.language as tl


@triton.jit
def rms_rows_kernel(x_ptr, y_ptr, eps, WIDTH: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, WIDTH)
    x = tl.load(x_ptr + row * WIDTH + cols)
    sq = x * x
    ms = tl.sum(sq, axis=0) / WIDTH
    r = 1.0 / tl.sqrt(ms + eps)
    tl.store(y_ptr + row * WIDTH + cols, x * r + sq * 0.001)
