"""fp16 GEMM for 2176 tokens x 1920 features (K = 8192) with 128x256 output tiles."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 2176
N = 1920
K = 8192

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * M * N * K",
    "bytes": "(M * K + K * N + M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 136, "N": 120, "K": 64},
}


@triton.jit
def linear_fwd_kernel(x_ptr, w_ptr, y_ptr, M, N, K, stride_xm, stride_wk, stride_ym,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + rm[:, None] * stride_xm + (k + rk)[None, :], mask=rm[:, None] < M,
                    other=0.0)
        w = tl.load(w_ptr + (k + rk)[:, None] * stride_wk + rn[None, :], mask=rn[None, :] < N,
                    other=0.0)
        acc = tl.dot(x, w, acc)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class Model(torch.nn.Module):
    def forward(self, x, w):
        return (x.float() @ w.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, w):
        m, k = x.shape
        _, n = w.shape
        y = torch.empty((m, n), device=x.device, dtype=torch.float16)
        cfg = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, num_warps=8, num_stages=3)
        grid = (triton.cdiv(m, cfg["BLOCK_M"]), triton.cdiv(n, cfg["BLOCK_N"]))
        linear_fwd_kernel[grid](x, w, y, m, n, k, x.stride(0), w.stride(0), y.stride(0), **cfg)
        return y


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16) * 0.1,
            torch.randn(K, N, device=DEVICE, dtype=torch.float16) * 0.1]


def get_init_inputs():
    return []
