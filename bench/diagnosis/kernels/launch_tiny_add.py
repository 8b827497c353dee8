"""Planted cause (needs measurement): a well-formed vector add launched on 4096 elements: the
kernel finishes in about the time of its launch (launch-bound)."""
import triton
import triton.language as tl


@triton.jit
def small_add_kernel(x, y, z, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(z + i, tl.load(x + i, mask=m) + tl.load(y + i, mask=m), mask=m)
