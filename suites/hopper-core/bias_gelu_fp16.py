"""Fused bias add + tanh GELU on fp16 (the MLP epilogue of a transformer), 16384 x 4096."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 16384
HIDDEN = 4096

STRATA_TASK = {
    "category": "elementwise",
    "flops": "13 * TOKENS * HIDDEN",
    "bytes": "(2 * TOKENS * HIDDEN + HIDDEN) * 2",
    "extra_shapes": [{"TOKENS": 9, "HIDDEN": 1000}],
    "interpret_shapes": {"TOKENS": 8, "HIDDEN": 512},
}


@triton.jit
def bias_gelu_kernel(x_ptr, bias_ptr, out_ptr, n_elements, hidden, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    b = tl.load(bias_ptr + offsets % hidden, mask=mask).to(tl.float32)
    h = x + b
    inner = 0.7978845608028654 * (h + 0.044715 * h * h * h)
    y = 0.5 * h * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    tl.store(out_ptr + offsets, y.to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, bias):
        return torch.nn.functional.gelu(x + bias, approximate="tanh")


class ModelNew(torch.nn.Module):
    def forward(self, x, bias):
        out = torch.empty_like(x)
        n_elements = x.numel()
        grid = (triton.cdiv(n_elements, 1024),)
        bias_gelu_kernel[grid](x, bias, out, n_elements, x.shape[-1], BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16),
            torch.randn(HIDDEN, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
