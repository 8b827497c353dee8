"""Batched fp16 matmul (64 independent 256 x 256 x 256 products, as in a block-diagonal layer),
one GEMM launch per batch item."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 64
M = 256
N = 256
K = 256

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * BATCH * M * N * K",
    "bytes": "BATCH * (M * K + K * N + M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"BATCH": 3, "M": 64, "N": 64, "K": 64},
}


@triton.jit
def gemm_tile_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.bmm(a.float(), b.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        batch, m, k = a.shape
        n = b.shape[2]
        c = torch.empty((batch, m, n), device=a.device, dtype=torch.float16)
        grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
        for i in range(batch):
            gemm_tile_kernel[grid](a[i], b[i], c[i], m, n, k, a.stride(1), b.stride(1),
                                   c.stride(1), BLOCK_M=64, BLOCK_N=64, BLOCK_K=64,
                                   num_warps=4, num_stages=3)
        return c


def get_inputs():
    return [torch.randn(BATCH, M, K, device=DEVICE, dtype=torch.float16) * 0.1,
            torch.randn(BATCH, K, N, device=DEVICE, dtype=torch.float16) * 0.1]


def get_init_inputs():
    return []
