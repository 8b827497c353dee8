"""Planted cause: a small per-program fp32 product (attention-score style, q @ k^T) computed with
input_precision="ieee": the dot runs as FMAs instead of on tensor cores (FMA fallback)."""
import triton
import triton.language as tl


@triton.jit
def scores_kernel(q_ptr, k_ptr, s_ptr, D: tl.constexpr, BQ: tl.constexpr, BKV: tl.constexpr):
    head = tl.program_id(0)
    rq = tl.arange(0, BQ)
    rk = tl.arange(0, BKV)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + head * BQ * D + rq[:, None] * D + rd[None, :])
    k = tl.load(k_ptr + head * BKV * D + rk[None, :] * D + rd[:, None])
    s = tl.dot(q, k, input_precision="ieee")
    tl.store(s_ptr + head * BQ * BKV + rq[:, None] * BKV + rk[None, :], s)
