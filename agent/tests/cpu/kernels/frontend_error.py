import triton
import triton.language as tl


@triton.jit
def bad_arange_kernel(out_ptr, n):
    # tl.arange needs constexpr bounds; a runtime `n` is a frontend error.
    offsets = tl.arange(0, n)
    tl.store(out_ptr + offsets, offsets)
