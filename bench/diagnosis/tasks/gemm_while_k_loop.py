"""fp16 GEMM whose K loop is a while loop over a running offset (masked K edge)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 8192
N = 8192
K = 4096

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * M * N * K",
    "bytes": "(M * K + K * N + M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 128, "N": 128, "K": 96},
}


@triton.jit
def matmul_while_kernel(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                        stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    k = 0
    while k < K:
        a = tl.load(A + rm[:, None] * stride_am + (k + rk)[None, :] * stride_ak,
                    mask=(k + rk)[None, :] < K, other=0.0)
        b = tl.load(B + (k + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(k + rk)[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc)
        k += BLOCK_K
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, a, b):
        return (a.float() @ b.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        m, k = a.shape
        _, n = b.shape
        c = torch.empty((m, n), device=a.device, dtype=torch.float16)
        grid = (triton.cdiv(m, 128), triton.cdiv(n, 128))
        matmul_while_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                                  b.stride(1), c.stride(0), c.stride(1), BLOCK_M=128,
                                  BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)
        return c


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16),
            torch.randn(K, N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
