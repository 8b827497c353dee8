"""Planted cause: a 2-D tile whose column stride `sc` is a run-time int (1 at every launch):
the innermost axis is not known contiguous (run-time unit stride)."""
import triton
import triton.language as tl


@triton.jit
def tile_scale_kernel(a, b, sr, sc, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * BM + tl.arange(0, BM)
    c = tl.arange(0, BN)
    offs = r[:, None] * sr + c[None, :] * sc
    t = tl.load(a + offs)
    tl.store(b + r[:, None] * BN + c[None, :], t * 3.0)
