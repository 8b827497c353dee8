"""fp16 linear layer with a fused epilogue: bias, tanh-GELU, a residual add and a per-row
scale, applied to a 128x256 accumulator tile."""
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
    "bytes": "(M * K + K * N + 2 * M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 128, "N": 256, "K": 64},
}


@triton.jit
def linear_gelu_residual_kernel(a_ptr, b_ptr, bias_ptr, res_ptr, rowscale_ptr, c_ptr, M, N, K,
                                stride_am, stride_bk, stride_cm, BLOCK_M: tl.constexpr,
                                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :])
        acc = tl.dot(a, b, acc)
    offs = rm[:, None] * stride_cm + rn[None, :]
    h = acc + tl.load(bias_ptr + rn).to(tl.float32)[None, :]
    inner = 0.7978845608028654 * (h + 0.044715 * h * h * h)
    g = 0.5 * h * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    out = g * tl.load(rowscale_ptr + rm).to(tl.float32)[:, None]
    out += tl.load(res_ptr + offs).to(tl.float32)
    tl.store(c_ptr + offs, out.to(tl.float16))


class Model(torch.nn.Module):
    def forward(self, a, b, bias, residual, rowscale):
        h = a.float() @ b.float() + bias.float()
        g = torch.nn.functional.gelu(h, approximate="tanh")
        return (g * rowscale.float()[:, None] + residual.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, a, b, bias, residual, rowscale):
        m, k = a.shape
        n = b.shape[1]
        c = torch.empty((m, n), device=a.device, dtype=torch.float16)
        grid = (triton.cdiv(m, 128), triton.cdiv(n, 256))
        linear_gelu_residual_kernel[grid](a, b, bias, residual, rowscale, c, m, n, k,
                                          a.stride(0), b.stride(0), c.stride(0), BLOCK_M=128,
                                          BLOCK_N=256, BLOCK_K=64, num_warps=8, num_stages=3)
        return c


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16) * 0.05,
            torch.randn(K, N, device=DEVICE, dtype=torch.float16) * 0.05,
            torch.randn(N, device=DEVICE, dtype=torch.float16),
            torch.randn(M, N, device=DEVICE, dtype=torch.float16),
            torch.rand(M, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
