"""Inclusive prefix sum along the last dimension, fp32 16384 x 4096 (block scan plus carry)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 4096

STRATA_TASK = {
    "category": "scan",
    "flops": "ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4",
    "extra_shapes": [{"ROWS": 3, "COLS": 2500}],
    "interpret_shapes": {"ROWS": 8, "COLS": 2048},
}


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    carry = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0)
        scanned = tl.cumsum(x, axis=0) + carry
        tl.store(out_ptr + row * stride_row + cols, scanned, mask=mask)
        carry += tl.sum(x, axis=0)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.cumsum(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty_like(x)
        cumsum_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
