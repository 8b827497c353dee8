"""fp16 GEMM with a small output and a long reduction (512 x 512 x 32768, as in a weight
gradient over many tokens): 128x128 output tiles."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 512
N = 512
K = 32768

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * M * N * K",
    "bytes": "(M * K + K * N + M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 128, "N": 128, "K": 512},
}


@triton.jit
def gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.program_id(2) * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.program_id(2) * BLOCK_K, K, BLOCK_K * SPLIT_K):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_K * SPLIT_K * stride_ak
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc)


class Model(torch.nn.Module):
    def forward(self, a, b):
        return (a.float() @ b.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        m, k = a.shape
        _, n = b.shape
        c = torch.zeros((m, n), device=a.device, dtype=torch.float32)
        grid = (m // 128, n // 128, 8)
        gemm_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                          c.stride(0), c.stride(1), BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                          SPLIT_K=8, num_warps=8, num_stages=4)
        return c.half()


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16) * 0.05,
            torch.randn(K, N, device=DEVICE, dtype=torch.float16) * 0.05]


def get_init_inputs():
    return []
