"""Planted cause: 256x256 fp32 accumulator tiles with 4 warps: 512 accumulator registers per
thread, so ptxas spills to local memory (register spills)."""
import triton
import triton.language as tl


@triton.jit
def big_tile_kernel(a, b, c, K, LA: tl.constexpr, LB: tl.constexpr, LC: tl.constexpr,
                    TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr):
    i = tl.program_id(0) * TM + tl.arange(0, TM)
    j = tl.program_id(1) * TN + tl.arange(0, TN)
    p = tl.arange(0, TK)
    acc = tl.zeros((TM, TN), dtype=tl.float32)
    for k in range(0, K, TK):
        lhs = tl.load(a + i[:, None] * LA + (k + p)[None, :])
        rhs = tl.load(b + (k + p)[:, None] * LB + j[None, :])
        acc += tl.dot(lhs, rhs)
    tl.store(c + i[:, None] * LC + j[None, :], acc)
