"""Planted cause: a 2-D kernel with 4x8 tiles (32 elements) launched with 8 warps: 256 threads
for 32 elements (tiny tiles)."""
import triton
import triton.language as tl


@triton.jit
def clamp_tile_kernel(src, dst, lo, hi, W: tl.constexpr, TR: tl.constexpr, TC: tl.constexpr):
    r = tl.program_id(0) * TR + tl.arange(0, TR)
    c = tl.program_id(1) * TC + tl.arange(0, TC)
    p = r[:, None] * W + c[None, :]
    v = tl.load(src + p)
    tl.store(dst + p, tl.minimum(tl.maximum(v, lo), hi))
