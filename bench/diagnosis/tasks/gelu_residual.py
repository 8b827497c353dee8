"""y = gelu(x) + x (tanh approximation) over 64M fp32 values, the activation in a helper."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1 << 26

STRATA_TASK = {
    "category": "elementwise",
    "flops": "12 * N",
    "bytes": "2 * N * 4",
    "interpret_shapes": {"N": 5000},
}


@triton.jit
def _gelu_tanh(x):
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))


@triton.jit
def gelu_residual_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    act = _gelu_tanh(tl.load(x_ptr + offs, mask=mask, other=0.0))
    residual = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, act + residual, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x, approximate="tanh") + x


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        gelu_residual_kernel[(triton.cdiv(n, 2048),)](x, y, n, BLOCK=2048, num_warps=8)
        return y


def get_inputs():
    return [torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
