"""Planted cause: the length `n` is not known divisible by 16, so the mask `offs < n` forces
scalar 32-bit loads and stores (alignment / vectorization)."""
import triton
import triton.language as tl


@triton.jit
def scale_kernel(src, dst, alpha, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    offs = start + tl.arange(0, BLOCK)
    inside = offs < n
    v = tl.load(src + offs, mask=inside, other=0.0)
    tl.store(dst + offs, v * alpha, mask=inside)
