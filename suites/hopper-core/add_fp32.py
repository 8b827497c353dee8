"""Elementwise add of two fp32 vectors (64M elements, memory-bound)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 64 * 1024 * 1024

STRATA_TASK = {
    "category": "elementwise",
    "flops": "N",
    "bytes": "3 * N * 4",
    "extra_shapes": [{"N": 70_001}],
    "interpret_shapes": {"N": 4096},
}


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, y):
        return x + y


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        out = torch.empty_like(x)
        n_elements = out.numel()
        grid = (triton.cdiv(n_elements, 1024),)
        add_kernel[grid](x, y, out, n_elements, BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(N, device=DEVICE), torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
