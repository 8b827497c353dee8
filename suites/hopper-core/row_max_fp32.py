"""Max over the last dimension of an fp32 16384 x 4096 matrix (values only)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 4096

STRATA_TASK = {
    "category": "reduction",
    "flops": "ROWS * COLS",
    "bytes": "(ROWS * COLS + ROWS) * 4",
    "extra_shapes": [{"ROWS": 5, "COLS": 4099}],
    "interpret_shapes": {"ROWS": 16, "COLS": 1024},
}


@triton.jit
def row_max_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=-float("inf"))
    tl.store(out_ptr + row, tl.max(x, axis=0))


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.max(x, dim=1).values


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty(rows, device=x.device, dtype=x.dtype)
        BLOCK_SIZE = triton.next_power_of_2(cols)
        row_max_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
