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
def col_center_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = cols < n_cols
    acc = tl.zeros((BLOCK_C,), dtype=tl.float32)
    for r0 in range(0, n_rows, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        m = (r[:, None] < n_rows) & cmask[None, :]
        acc += tl.sum(tl.load(x_ptr + r[:, None] * n_cols + cols[None, :], mask=m, other=0.0), axis=0)
    mean = acc / n_rows
    for r0 in range(0, n_rows, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        m = (r[:, None] < n_rows) & cmask[None, :]
        v = tl.load(x_ptr + r[:, None] * n_cols + cols[None, :], mask=m, other=0.0)
        tl.store(y_ptr + r[:, None] * n_cols + cols[None, :], v - mean[None, :], mask=m)


class Model(torch.nn.Module):
    def forward(self, x):
        return x - x.mean(dim=0, keepdim=True)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty_like(x)
        col_center_kernel[(triton.cdiv(cols, 64),)](x, y, rows, cols, BLOCK_R=64, BLOCK_C=64,
                                                     num_warps=4)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
