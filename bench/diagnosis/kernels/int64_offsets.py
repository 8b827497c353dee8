"""Planted cause: offsets are widened to int64 before the pointer arithmetic although every
index fits in 32 bits: 64-bit index math on every element (index math)."""
import triton
import triton.language as tl


@triton.jit
def widen_copy_kernel(a, b, BLOCK: tl.constexpr):
    o = (tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)).to(tl.int64)
    tl.store(b + o, tl.load(a + o) + 1.0)
