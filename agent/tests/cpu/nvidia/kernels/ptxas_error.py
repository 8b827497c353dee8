"""Inline PTX that ptxas rejects: test input for the ptxas_error kind."""
import triton
import triton.language as tl


@triton.jit
def bad_asm_kernel(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    y = tl.inline_asm_elementwise("bogus.instr $0, $1;", "=r,r", [x], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(x_ptr + offsets, y)
