"""torch.cummax(x, dim=1).values of fp32 (4096, 4096) rows, one program per row."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 4096

STRATA_TASK = {
    "category": "scan",
    "bytes": "2 * ROWS * COLS * 4",
    "interpret_shapes": {"ROWS": 3, "COLS": 70},
}


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def running_max_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    best = tl.load(x_row)
    for i in tl.range(0, n_cols):
        best = tl.maximum(best, tl.load(x_row + i))
        tl.store(y_row + i, best)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.cummax(x, dim=1).values


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty_like(x)
        running_max_kernel[(rows,)](x, y, cols, x.stride(0), BLOCK=1024, num_warps=4)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
