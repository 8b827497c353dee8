"""Planted cause: per-element `//` and `%` by a non-power-of-2 width inside the loop to turn a
flat index into (row, col): integer division on every element (index math)."""
import triton
import triton.language as tl


@triton.jit
def unfold_kernel(src, dst, total, ITERS: tl.constexpr, WIDTH: tl.constexpr, PITCH: tl.constexpr,
                  BLOCK: tl.constexpr):
    first = tl.program_id(0) * ITERS * BLOCK
    for it in range(0, ITERS):
        flat = first + it * BLOCK + tl.arange(0, BLOCK)
        row = flat // WIDTH
        col = flat % WIDTH
        v = tl.load(src + row * PITCH + col)
        tl.store(dst + flat, v)
