"""Planted cause: a dot product read one element per loop iteration (a scalar load in a loop),
instead of a vector tile (scalar loads in a loop)."""
import triton
import triton.language as tl


@triton.jit
def dot_scalar_kernel(a, b, out, N: tl.constexpr):
    acc = 0.0
    for i in range(0, N):
        acc += tl.load(a + i) * tl.load(b + i)
    tl.store(out + tl.program_id(0), acc)
