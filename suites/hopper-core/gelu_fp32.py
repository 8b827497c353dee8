"""Exact (erf) GELU over an fp32 activation tensor of 8192 x 8192 (memory-bound)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 8192
COLS = 8192

STRATA_TASK = {
    "category": "elementwise",
    "flops": "8 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4",
    "extra_shapes": [{"ROWS": 33, "COLS": 1001}],
    "interpret_shapes": {"ROWS": 16, "COLS": 512},
}


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offsets, y, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n_elements = x.numel()
        grid = (triton.cdiv(n_elements, 1024),)
        gelu_kernel[grid](x, out, n_elements, BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
