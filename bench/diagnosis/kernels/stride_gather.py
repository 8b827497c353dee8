"""Planted cause: the element stride `step` is a run-time int; the launch always passes 1 but
the compiler cannot know it, so no access is vectorized (run-time unit stride)."""
import triton
import triton.language as tl


@triton.jit
def strided_relu_kernel(x, y, n, step, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    v = tl.load(x + i * step, mask=m, other=0.0)
    tl.store(y + i, tl.maximum(v, 0.0), mask=m)
