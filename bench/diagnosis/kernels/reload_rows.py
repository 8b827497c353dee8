"""Planted cause: a row normalisation that loads the row once for the max and again, with the
same pointer and mask, for the exponent (redundant load)."""
import triton
import triton.language as tl


@triton.jit
def softmax_twice_kernel(inp, outp, STRIDE: tl.constexpr, BC: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BC)
    ptrs = inp + row * STRIDE + cols
    mx = tl.max(tl.load(ptrs), axis=0)
    e = tl.exp(tl.load(ptrs) - mx)
    tl.store(outp + row * STRIDE + cols, e / tl.sum(e, axis=0))
