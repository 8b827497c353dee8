"""Planted cause: a well-formed fp16 matmul launched with num_stages=1: the K-loop loads are
synchronous, nothing overlaps memory with the tensor cores (no pipelining)."""
import triton
import triton.language as tl


@triton.jit
def gemm_kernel(a, b, c, K, sa: tl.constexpr, sb: tl.constexpr, sc: tl.constexpr,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM + tl.arange(0, BM)
    n = tl.program_id(1) * BN + tl.arange(0, BN)
    kk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + m[:, None] * sa + (k + kk)[None, :])
        w = tl.load(b + (k + kk)[:, None] * sb + n[None, :])
        acc = tl.dot(x, w, acc)
    tl.store(c + m[:, None] * sc + n[None, :], acc.to(tl.float16))
