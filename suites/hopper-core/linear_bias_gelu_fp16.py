"""Linear + bias + tanh-GELU fused in the matmul epilogue (GPT MLP fc1), fp16 8192 x 4096 -> 16384."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 8192
IN_FEATURES = 4096
OUT_FEATURES = 16384

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * TOKENS * IN_FEATURES * OUT_FEATURES + 14 * TOKENS * OUT_FEATURES",
    "bytes": "(TOKENS * IN_FEATURES + OUT_FEATURES * IN_FEATURES + OUT_FEATURES"
             " + TOKENS * OUT_FEATURES) * 2",
    "precision": "fp16",
    "extra_shapes": [{"TOKENS": 50, "IN_FEATURES": 72, "OUT_FEATURES": 90}],
    "interpret_shapes": {"TOKENS": 64, "IN_FEATURES": 64, "OUT_FEATURES": 64},
}


@triton.jit
def linear_gelu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, stride_xm, stride_xk, stride_wn,
                       stride_wk, stride_ym, stride_yn, BLOCK_M: tl.constexpr,
                       BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        x = tl.load(x_ptr + offs_m[:, None] * stride_xm + ks[None, :] * stride_xk,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        w = tl.load(w_ptr + offs_n[:, None] * stride_wn + ks[None, :] * stride_wk,
                    mask=(offs_n[:, None] < N) & (ks[None, :] < K), other=0.0)
        acc += tl.dot(x, tl.trans(w))
    bias = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
    h = acc + bias[None, :]
    inner = 0.7978845608028654 * (h + 0.044715 * h * h * h)
    y = 0.5 * h * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    tl.store(y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn,
             y.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class Model(torch.nn.Module):
    def __init__(self, in_features: int = IN_FEATURES, out_features: int = OUT_FEATURES):
        super().__init__()
        self.fc = torch.nn.Linear(in_features, out_features).half()

    def forward(self, x):
        return torch.nn.functional.gelu(self.fc(x), approximate="tanh")


class ModelNew(Model):
    def forward(self, x):
        M, K = x.shape
        N = self.fc.weight.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        w = self.fc.weight
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        linear_gelu_kernel[grid](x, w, self.fc.bias, y, M, N, K, x.stride(0), x.stride(1),
                                 w.stride(0), w.stride(1), y.stride(0), y.stride(1),
                                 BLOCK_M=64, BLOCK_N=64, BLOCK_K=64)
        return y


def get_inputs():
    return [torch.randn(TOKENS, IN_FEATURES, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
