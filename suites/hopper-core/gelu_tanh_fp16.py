"""Tanh-approximated GELU (GPT-2 style) over fp16 activations of 16384 x 4096."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 4096

STRATA_TASK = {
    "category": "elementwise",
    "flops": "12 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2",
    "extra_shapes": [{"ROWS": 7, "COLS": 3001}],
    "interpret_shapes": {"ROWS": 8, "COLS": 1024},
}


@triton.jit
def gelu_tanh_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    # tanh(z) = 2 * sigmoid(2z) - 1
    tanh_inner = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    y = 0.5 * x * (1.0 + tanh_inner)
    tl.store(out_ptr + offsets, y.to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x, approximate="tanh")


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n_elements = x.numel()
        BLOCK_SIZE = 1024
        grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
        gelu_tanh_kernel[grid](x, out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
