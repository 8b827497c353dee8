"""Planted cause: an element-wise kernel that reads its input with a constant stride of 8
elements (every 8th float), so no access is contiguous across lanes (uncoalesced access)."""
import triton
import triton.language as tl


@triton.jit
def decimate_kernel(x, y, n, STEP: tl.constexpr, BLOCK: tl.constexpr):
    j = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = j < n
    tl.store(y + j, tl.load(x + j * STEP, mask=ok, other=0.0) * 0.5, mask=ok)
