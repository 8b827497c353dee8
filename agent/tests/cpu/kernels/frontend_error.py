import triton
import triton.language as tl


@triton.jit
def bad_arange_kernel(out_ptr, n):
    # tl.arange needs constexpr bounds; a runtime `n` is a frontend error.
    offsets = tl.arange(0, n)
    tl.store(out_ptr + offsets, offsets)


@triton.jit
def _invert(x):
    return ~x


@triton.jit
def helper_error_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # The error is inside the helper: Triton's CompilationError at this call has no message of
    # its own ("at 4:10:" and the excerpt); the cause chained under it says what went wrong.
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, _invert(tl.load(x_ptr + offsets)))


@triton.jit
def cast_kernel(x_ptr, out_ptr, OUT_DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets).to(OUT_DTYPE))
