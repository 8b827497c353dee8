"""Planted cause: the K-loop is written `tl.range(..., num_stages=1)`, which overrides the
launch's num_stages=3 for this loop: its loads are not pipelined (no pipelining)."""
import triton
import triton.language as tl


@triton.jit
def linear_kernel(x_ptr, w_ptr, y_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  LDX: tl.constexpr, LDW: tl.constexpr, LDY: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    total = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=1):
        xt = tl.load(x_ptr + rows[:, None] * LDX + (k + ks)[None, :])
        wt = tl.load(w_ptr + (k + ks)[:, None] * LDW + cols[None, :])
        total += tl.dot(xt, wt)
    tl.store(y_ptr + rows[:, None] * LDY + cols[None, :], total.to(tl.bfloat16))
