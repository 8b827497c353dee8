"""Planted cause: a 32-element block for an element-wise kernel: most of each CTA's 4 warps
have no work and a huge grid of tiny programs (tiny tiles)."""
import triton
import triton.language as tl


@triton.jit
def bias_add_kernel(x, bias, out, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    m = o < n
    tl.store(out + o, tl.load(x + o, mask=m) + tl.load(bias + o, mask=m), mask=m)
