"""Planted cause: each loop iteration loads a tile row-major and stores it transposed, so the
values go through a shared-memory layout conversion with barriers every iteration
(layout-conversion churn)."""
import triton
import triton.language as tl


@triton.jit
def transpose_blocks_kernel(src, dst, NB, N: tl.constexpr, T: tl.constexpr):
    r = tl.arange(0, T)
    c = tl.arange(0, T)
    for blk in range(0, NB):
        base = blk * T * N
        tile = tl.load(src + base + r[:, None] * N + c[None, :])
        tl.store(dst + base + c[None, :] * N + r[:, None], tile)
