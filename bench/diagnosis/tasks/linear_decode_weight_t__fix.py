"""Decode-time linear layer y = x @ W.T for 64 tokens with an fp16 nn.Linear weight (8192 out,
8192 in): the GEMM kernel reads its B operand as a (K, N) matrix."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 64
IN_FEATURES = 8192
OUT_FEATURES = 8192

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * TOKENS * IN_FEATURES * OUT_FEATURES",
    "bytes": "(TOKENS * IN_FEATURES + IN_FEATURES * OUT_FEATURES + TOKENS * OUT_FEATURES) * 2",
    "precision": "fp16",
    "interpret_shapes": {"TOKENS": 16, "IN_FEATURES": 128, "OUT_FEATURES": 192},
}


@triton.jit
def skinny_gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                       stride_bn, stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       BLOCK_K: tl.constexpr):
    rm = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :] * stride_ak,
                    mask=rm[:, None] < M, other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=rn[None, :] < N, other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class Model(torch.nn.Module):
    def forward(self, x, weight):
        return (x.float() @ weight.float().t()).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, weight):
        m, k = x.shape
        n = weight.shape[0]
        w_t = weight.t()
        y = torch.empty((m, n), device=x.device, dtype=torch.float16)
        grid = (triton.cdiv(n, 128), triton.cdiv(m, 64))
        skinny_gemm_kernel[grid](x, w_t, y, m, n, k, x.stride(0), x.stride(1), w_t.stride(0),
                                 w_t.stride(1), y.stride(0), BLOCK_M=64, BLOCK_N=128,
                                 BLOCK_K=64, num_warps=4, num_stages=4)
        return y


def get_inputs():
    return [torch.randn(TOKENS, IN_FEATURES, device=DEVICE, dtype=torch.float16),
            torch.randn(OUT_FEATURES, IN_FEATURES, device=DEVICE, dtype=torch.float16) * 0.02]


def get_init_inputs():
    return []
