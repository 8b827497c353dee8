"""Planted cause: a 128x128 fp32 tile transposed by only 2 warps: 256 values per thread do not fit
in the register file, so ptxas spills (register spills; it also leaves few warps per SM)."""
import triton
import triton.language as tl


@triton.jit
def transpose_tile_kernel(src, dst, N: tl.constexpr, T: tl.constexpr):
    bi = tl.program_id(0) * T
    bj = tl.program_id(1) * T
    i = tl.arange(0, T)
    tile = tl.load(src + (bi + i)[:, None] * N + (bj + i)[None, :])
    tl.store(dst + (bj + i)[None, :] * N + (bi + i)[:, None], tile)
