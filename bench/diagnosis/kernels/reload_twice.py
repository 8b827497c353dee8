"""Planted cause: the same input tile is loaded twice with the same pointer and mask (once for
the value, once for the gate): a redundant global load."""
import triton
import triton.language as tl


@triton.jit
def gated_kernel(x, out, n, BLOCK: tl.constexpr):
    k = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = k < n
    val = tl.load(x + k, mask=m, other=0.0)
    gate = tl.load(x + k, mask=m, other=0.0)
    tl.store(out + k, val * tl.sigmoid(gate), mask=m)
