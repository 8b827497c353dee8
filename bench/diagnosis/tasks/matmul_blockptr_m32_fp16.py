"""fp16 GEMM with block pointers: each program owns a BLOCK_M x BLOCK_N tile of C."""
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
    "interpret_shapes": {"M": 64, "N": 128, "K": 64},
}


@triton.jit
def gemm_bp_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                   stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_blk = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                              offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K),
                              order=(1, 0))
    b_blk = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(stride_bk, stride_bn),
                              offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N),
                              order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_blk, boundary_check=(0, 1))
        b = tl.load(b_blk, boundary_check=(0, 1))
        acc += tl.dot(a, b)
        a_blk = tl.advance(a_blk, (0, BLOCK_K))
        b_blk = tl.advance(b_blk, (BLOCK_K, 0))
    c_blk = tl.make_block_ptr(c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                              offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                              block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_blk, acc.to(tl.float16), boundary_check=(0, 1))


class Model(torch.nn.Module):
    def forward(self, a, b):
        return a @ b


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        m, k = a.shape
        _, n = b.shape
        c = torch.empty((m, n), device=a.device, dtype=torch.float16)
        bm, bn, bk = 32, 128, 64
        grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
        gemm_bp_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                             b.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                             BLOCK_K=bk, num_warps=4, num_stages=3)
        return c


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16),
            torch.randn(K, N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
