"""fp16 GEMM writing its result column-major (C^T stored contiguous, as a following kernel
consumes it transposed), tuned with @triton.autotune."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 8192
N = 8192
K = 8192

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * M * N * K",
    "bytes": "(M * K + K * N + M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 128, "N": 256, "K": 128},
}


@triton.autotune(
    configs=[triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64}, num_warps=8,
                           num_stages=3),
             triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=4,
                           num_stages=4)],
    key=["M", "N", "K"],
)
@triton.jit
def gemm_colmajor_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cn,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + rn[None, :] * stride_cn + rm[:, None]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


class Model(torch.nn.Module):
    def forward(self, a, b):
        return (a.float() @ b.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        m, k = a.shape
        n = b.shape[1]
        c_t = torch.empty((n, m), device=a.device, dtype=torch.float16)
        grid = lambda meta: (triton.cdiv(m, meta["BLOCK_M"]), triton.cdiv(n, meta["BLOCK_N"]))
        gemm_colmajor_kernel[grid](a, b, c_t, m, n, k, a.stride(0), b.stride(0), c_t.stride(0))
        return c_t.t()


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16) * 0.1,
            torch.randn(K, N, device=DEVICE, dtype=torch.float16) * 0.1]


def get_init_inputs():
    return []
