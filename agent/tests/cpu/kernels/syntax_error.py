import triton
import triton.language as tl


@triton.jit
def broken_kernel(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK
    tl.store(x_ptr + offsets, offsets)
