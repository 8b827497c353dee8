"""Decode-time GEMV y = W @ x, fp16 W of 32768 x 8192 (memory-bound: reading W dominates)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
OUT_FEATURES = 32768
IN_FEATURES = 8192

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * OUT_FEATURES * IN_FEATURES",
    "bytes": "(OUT_FEATURES * IN_FEATURES + IN_FEATURES + OUT_FEATURES) * 2",
    "precision": "fp16",
    "extra_shapes": [{"OUT_FEATURES": 77, "IN_FEATURES": 300}],
    "interpret_shapes": {"OUT_FEATURES": 256, "IN_FEATURES": 512},
}


@triton.jit
def gemv_kernel(w_ptr, x_ptr, y_ptr, N, K, stride_wn, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        cols = k + tl.arange(0, BLOCK_K)
        w = tl.load(w_ptr + rows[:, None] * stride_wn + cols[None, :],
                    mask=(rows[:, None] < N) & (cols[None, :] < K), other=0.0)
        x = tl.load(x_ptr + cols, mask=cols < K, other=0.0)
        acc += tl.sum(w.to(tl.float32) * x.to(tl.float32)[None, :], axis=1)
    tl.store(y_ptr + rows, acc.to(tl.float16), mask=rows < N)


class Model(torch.nn.Module):
    def forward(self, weight, x):
        return torch.mv(weight, x)


class ModelNew(torch.nn.Module):
    def forward(self, weight, x):
        N, K = weight.shape
        y = torch.empty(N, device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(N, 64),)
        gemv_kernel[grid](weight, x, y, N, K, weight.stride(0), BLOCK_N=64, BLOCK_K=128)
        return y


def get_inputs():
    return [torch.randn(OUT_FEATURES, IN_FEATURES, device=DEVICE, dtype=torch.float16),
            torch.randn(IN_FEATURES, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
