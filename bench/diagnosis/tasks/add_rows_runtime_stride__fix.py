"""Residual add with a broadcast bias, y = x + r + b, on fp16 (8192, 8192) activations given as
strided views (the kernel takes both strides of each operand)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 8192
N = 8192

STRATA_TASK = {
    "category": "elementwise",
    "bytes": "3 * M * N * 2 + N * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 5, "N": 80},
    "tolerance": 1e-2,
}


@triton.jit
def residual_bias_kernel(x_ptr, r_ptr, b_ptr, y_ptr, n_cols, stride_xm, stride_xn, stride_rm,
                         stride_rn, stride_ym, stride_yn, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask)
    r = tl.load(r_ptr + row * stride_rm + cols * stride_rn, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride_ym + cols * stride_yn, x + r + b, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, r, b):
        return x + r + b


class ModelNew(torch.nn.Module):
    def forward(self, x, r, b):
        m, n = x.shape
        y = torch.empty_like(x)
        residual_bias_kernel[(m, triton.cdiv(n, 1024))](
            x, r, b, y, n, x.stride(0), x.stride(1), r.stride(0), r.stride(1), y.stride(0),
            y.stride(1), BLOCK_N=1024, num_warps=4)
        return y


def get_inputs():
    return [torch.randn(M, N, device=DEVICE, dtype=torch.float16),
            torch.randn(M, N, device=DEVICE, dtype=torch.float16),
            torch.randn(N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
