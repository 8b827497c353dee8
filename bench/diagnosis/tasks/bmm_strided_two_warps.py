"""Batched fp16 GEMM over a strided batch dimension (3-D grid: batch, M tiles, N tiles)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 32
M = 1024
N = 1024
K = 1024

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * BATCH * M * N * K",
    "bytes": "BATCH * (M * K + K * N + M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"BATCH": 2, "M": 64, "N": 64, "K": 64},
}


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_am, stride_ak, stride_bb,
               stride_bk, stride_bn, stride_cb, stride_cm, stride_cn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    bid = tl.program_id(0)
    pid_m = tl.program_id(1)
    pid_n = tl.program_id(2)
    a_ptr += bid * stride_ab
    b_ptr += bid * stride_bb
    c_ptr += bid * stride_cb
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    c = acc.to(tl.float16)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, c,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.bmm(a, b)


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        batch, m, k = a.shape
        n = b.shape[2]
        c = torch.empty((batch, m, n), device=a.device, dtype=torch.float16)
        grid = lambda META: (batch, triton.cdiv(m, META["BLOCK_M"]), triton.cdiv(n, META["BLOCK_N"]))
        bmm_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), a.stride(2), b.stride(0),
                         b.stride(1), b.stride(2), c.stride(0), c.stride(1), c.stride(2),
                         BLOCK_M=64, BLOCK_N=64, BLOCK_K=64, num_warps=2, num_stages=3)
        return c


def get_inputs():
    return [torch.randn(BATCH, M, K, device=DEVICE, dtype=torch.float16),
            torch.randn(BATCH, K, N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
