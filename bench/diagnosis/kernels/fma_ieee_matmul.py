"""Planted cause: an fp32 matmul asks for input_precision="ieee", which tensor cores cannot
do, so the dot falls back to scalar FMAs (FMA fallback)."""
import triton
import triton.language as tl


@triton.jit
def sgemm_kernel(a_ptr, b_ptr, c_ptr, K, LDA: tl.constexpr, LDB: tl.constexpr, LDC: tl.constexpr,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + offs_m[:, None] * LDA + (k + offs_k)[None, :])
        b = tl.load(b_ptr + (k + offs_k)[:, None] * LDB + offs_n[None, :])
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + offs_m[:, None] * LDC + offs_n[None, :], acc)
