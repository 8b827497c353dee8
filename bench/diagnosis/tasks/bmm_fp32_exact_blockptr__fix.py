"""Batched fp32 matmul with exact (IEEE) fp32 products, as a reference-accuracy path; block
pointers, one program per (tile, batch)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 16
M = 2048
N = 2048
K = 1024

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * BATCH * M * N * K",
    "bytes": "BATCH * (M * K + K * N + M * N) * 4",
    "interpret_shapes": {"BATCH": 2, "M": 64, "N": 128, "K": 64},
}


@triton.jit
def bmm_fp32_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_am, stride_bb, stride_bk,
                    stride_cb, stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2)
    a_blk = tl.make_block_ptr(a_ptr + batch * stride_ab, shape=(M, K), strides=(stride_am, 1),
                              offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K),
                              order=(1, 0))
    b_blk = tl.make_block_ptr(b_ptr + batch * stride_bb, shape=(K, N), strides=(stride_bk, 1),
                              offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N),
                              order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_blk, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc, input_precision="tf32")
        a_blk = tl.advance(a_blk, (0, BLOCK_K))
        b_blk = tl.advance(b_blk, (BLOCK_K, 0))
    c_blk = tl.make_block_ptr(c_ptr + batch * stride_cb, shape=(M, N), strides=(stride_cm, 1),
                              offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                              block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_blk, acc, boundary_check=(0, 1))


class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.bmm(a.double(), b.double()).float()


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        batch, m, k = a.shape
        n = b.shape[2]
        c = torch.empty((batch, m, n), device=a.device, dtype=torch.float32)
        grid = (triton.cdiv(m, 128), triton.cdiv(n, 128), batch)
        bmm_fp32_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                              c.stride(0), c.stride(1), BLOCK_M=128, BLOCK_N=128, BLOCK_K=32,
                              num_warps=8, num_stages=3)
        return c


def get_inputs():
    return [torch.randn(BATCH, M, K, device=DEVICE), torch.randn(BATCH, K, N, device=DEVICE)]


def get_init_inputs():
    return []
