"""Ascend check task: fp32 row sums with STRATA_TASK precision "hf32" (tolerance 5e-4)."""
import torch
import triton
import triton.language as tl

ROWS = 8
COLS = 300
STRATA_TASK = {"category": "reduction", "precision": "hf32"}


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * cols + offsets, mask=offsets < cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


class Model(torch.nn.Module):
    def forward(self, x):
        return x.sum(dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty(x.shape[0], dtype=x.dtype, device=x.device)
        row_sum_kernel[(x.shape[0],)](x, out, x.shape[1], BLOCK=512)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
