"""torch.cumsum(x, dim=1) of fp32 rows of 4096, one program per row carrying the running sum."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 4096

STRATA_TASK = {
    "category": "scan",
    "flops": "ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4",
    "interpret_shapes": {"ROWS": 3, "COLS": 100},
    "tolerance": 1e-4,
}


@triton.jit
def cumsum_row_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    running = 0.0
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0)
        tl.store(y_row + offs, running + tl.cumsum(x, axis=0), mask=mask)
        running += tl.sum(x, axis=0)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.cumsum(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty_like(x)
        cumsum_row_kernel[(rows,)](x, y, cols, x.stride(0), BLOCK=1024, num_warps=4)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
