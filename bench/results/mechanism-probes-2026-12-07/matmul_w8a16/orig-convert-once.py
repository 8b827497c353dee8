"""Weight-only int8 matmul: fp16 activations x int8 weights (per-output-channel fp16 scales)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 4096
IN_FEATURES = 4096
OUT_FEATURES = 14336

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * TOKENS * IN_FEATURES * OUT_FEATURES",
    "bytes": "(TOKENS * IN_FEATURES + TOKENS * OUT_FEATURES + OUT_FEATURES) * 2"
             " + OUT_FEATURES * IN_FEATURES",
    "precision": "fp16",
    "extra_shapes": [{"TOKENS": 17, "IN_FEATURES": 80, "OUT_FEATURES": 100}],
    "interpret_shapes": {"TOKENS": 32, "IN_FEATURES": 64, "OUT_FEATURES": 128},
}


@triton.jit
def w8a16_kernel(x_ptr, w_ptr, scale_ptr, y_ptr, M, N, K, stride_xm, stride_xk, stride_wn,
                 stride_wk, stride_ym, stride_yn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 BLOCK_K: tl.constexpr):
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
        w = tl.load(w_ptr + ks[:, None] * stride_wk + offs_n[None, :] * stride_wn,
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0)
        acc += tl.dot(x, w.to(tl.float16))
    scale = tl.load(scale_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
    y = acc * scale[None, :]
    tl.store(y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn,
             y.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def convert_kernel(src_ptr, dst_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask).to(dst_ptr.dtype.element_ty), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, weight_int8, scale):
        weight = weight_int8.to(x.dtype) * scale.to(x.dtype)[:, None]
        return torch.matmul(x, weight.t())


class ModelNew(torch.nn.Module):
    def forward(self, x, weight_int8, scale):
        M, K = x.shape
        N = weight_int8.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=torch.float16)
        # the weight converted once, not once per row block of every program
        w16 = torch.empty_like(weight_int8, dtype=torch.float16)
        convert_kernel[(triton.cdiv(w16.numel(), 4096),)](weight_int8, w16, w16.numel(), BLOCK=4096)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        w8a16_kernel[grid](x, w16, scale, y, M, N, K, x.stride(0), x.stride(1),
                           w16.stride(0), w16.stride(1), y.stride(0),
                           y.stride(1), BLOCK_M=64, BLOCK_N=64, BLOCK_K=64)
        return y


def get_inputs():
    x = torch.randn(TOKENS, IN_FEATURES, device=DEVICE, dtype=torch.float16)
    weight = torch.randint(-127, 128, (OUT_FEATURES, IN_FEATURES), device=DEVICE,
                           dtype=torch.int8)
    scale = torch.rand(OUT_FEATURES, device=DEVICE, dtype=torch.float16) * 0.002 + 0.001
    return [x, weight, scale]


def get_init_inputs():
    return []
