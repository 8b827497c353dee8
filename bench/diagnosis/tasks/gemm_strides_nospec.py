"""fp16 GEMM taking every stride at run time: all strides are kept out of specialization so one
compiled kernel serves any layout of A, B and C."""
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
    "interpret_shapes": {"M": 128, "N": 128, "K": 128},
}


@triton.jit(do_not_specialize=["stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm",
                               "stride_cn"])
def any_layout_gemm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                    stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class Model(torch.nn.Module):
    def forward(self, a, b):
        return (a.float() @ b.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        m, k = a.shape
        _, n = b.shape
        c = torch.empty((m, n), device=a.device, dtype=torch.float16)
        grid = (triton.cdiv(m, 128), triton.cdiv(n, 128))
        any_layout_gemm[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                              b.stride(1), c.stride(0), c.stride(1), BLOCK_M=128, BLOCK_N=128,
                              BLOCK_K=64, num_warps=8, num_stages=3)
        return c


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16),
            torch.randn(K, N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
