"""Planted cause: fp16 axpy whose pointers are not known 16-byte aligned: every access stays
scalar 16-bit (alignment / vectorization)."""
import triton
import triton.language as tl


@triton.jit
def axpy_kernel(x, y, out, a, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = idx < n
    xv = tl.load(x + idx, mask=ok, other=0.0)
    yv = tl.load(y + idx, mask=ok, other=0.0)
    tl.store(out + idx, (a * xv.to(tl.float32) + yv.to(tl.float32)).to(tl.float16), mask=ok)
