"""x + bias[None, :] over an fp32 (8192, 8192) activation with a 2-D grid of tiles."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 8192
N = 8192

STRATA_TASK = {
    "category": "elementwise",
    "flops": "M * N",
    "bytes": "2 * M * N * 4 + N * 4",
    "interpret_shapes": {"M": 24, "N": 96},
}


@triton.jit
def bias_add_kernel(x_ptr, bias_ptr, y_ptr, M, N, stride_m, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * stride_m + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask)
    bias = tl.load(bias_ptr + cols, mask=cols < N)
    tl.store(y_ptr + offs, x + bias[None, :], mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, bias):
        return x + bias[None, :]


class ModelNew(torch.nn.Module):
    def forward(self, x, bias):
        m, n = x.shape
        y = torch.empty_like(x)
        BLOCK_M, BLOCK_N = 16, 256
        grid = (triton.cdiv(m, BLOCK_M), triton.cdiv(n, BLOCK_N))
        bias_add_kernel[grid](x, bias, y, m, n, x.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                              num_warps=4)
        return y


def get_inputs():
    return [torch.randn(M, N, device=DEVICE), torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
