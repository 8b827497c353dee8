"""Planted cause: a per-channel scale where each element's channel is found with a per-element
`(idx // HW) % C` of non-power-of-2 sizes (index math)."""
import triton
import triton.language as tl


@triton.jit
def channel_scale_kernel(x, scale, y, HW: tl.constexpr, C: tl.constexpr, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ch = (idx // HW) % C
    s = tl.load(scale + ch)
    tl.store(y + idx, tl.load(x + idx) * s)
