"""Column centering: out = x - mean(x, dim=0), one program per column."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 8192

STRATA_TASK = {
    "category": "reduction",
    "flops": "2 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4",
    "tolerance": 1e-4,
    "interpret_shapes": {"ROWS": 64, "COLS": 16},
}


@triton.jit
def col_center_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    col = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for r0 in range(0, n_rows, BLOCK):
        r = r0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + r * n_cols + col, mask=r < n_rows, other=0.0)
    mean = tl.sum(acc, axis=0) / n_rows
    for r0 in range(0, n_rows, BLOCK):
        r = r0 + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + r * n_cols + col, mask=r < n_rows, other=0.0)
        tl.store(y_ptr + r * n_cols + col, v - mean, mask=r < n_rows)


class Model(torch.nn.Module):
    def forward(self, x):
        return x - x.mean(dim=0, keepdim=True)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty_like(x)
        col_center_kernel[(cols,)](x, y, rows, cols, BLOCK=1024, num_warps=4)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
