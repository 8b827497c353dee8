"""Planted cause: a histogram that issues one atomic add per element into a small bin array, in
a loop over chunks: atomics contend on few addresses (atomics contention)."""
import triton
import triton.language as tl


@triton.jit
def histogram_kernel(vals, bins, CHUNKS: tl.constexpr, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    base = tl.program_id(0) * CHUNKS * BLOCK
    for ch in range(0, CHUNKS):
        o = base + ch * BLOCK + tl.arange(0, BLOCK)
        b = tl.load(vals + o) % NBINS
        tl.atomic_add(bins + b, 1)
