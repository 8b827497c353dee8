"""Low-rank expansion: the (8192, 32) x (32, 8192) fp16 product that rebuilds a full matrix
from its rank-32 factors; K fits one tile."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 8192
N = 8192
RANK = 32

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * M * N * RANK",
    "bytes": "(M * RANK + RANK * N + M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 128, "N": 256},
}


@triton.jit
def expand_kernel(u_ptr, v_ptr, out_ptr, M, N, K, stride_um, stride_vk, stride_om,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        u = tl.load(u_ptr + rm[:, None] * stride_um + (k + rk)[None, :], mask=rm[:, None] < M,
                    other=0.0)
        v = tl.load(v_ptr + (k + rk)[:, None] * stride_vk + rn[None, :], mask=rn[None, :] < N,
                    other=0.0)
        acc = tl.dot(u, v, acc)
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class Model(torch.nn.Module):
    def forward(self, u, v):
        return (u.float() @ v.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, u, v):
        m, k = u.shape
        n = v.shape[1]
        out = torch.empty((m, n), device=u.device, dtype=torch.float16)
        grid = (triton.cdiv(m, 128), triton.cdiv(n, 256))
        expand_kernel[grid](u, v, out, m, n, k, u.stride(0), v.stride(0), out.stride(0),
                            BLOCK_M=128, BLOCK_N=256, BLOCK_K=k, num_warps=8, num_stages=1)
        return out


def get_inputs():
    return [torch.randn(M, RANK, device=DEVICE, dtype=torch.float16),
            torch.randn(RANK, N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
