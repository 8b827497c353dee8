"""out[i, j] = x[i, j] * g[j] / sum_j(x[i, j] * g[j]): gated row normalization, 2-D row tiles."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 32768
COLS = 1024

STRATA_TASK = {
    "category": "normalization",
    "flops": "3 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4 + COLS * 4",
    "tolerance": 1e-4,
    "interpret_shapes": {"ROWS": 32, "COLS": 64},
}


@triton.jit
def gated_norm_kernel(x_ptr, g_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr,
                      BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0.0)
    g = tl.load(g_ptr + cols, mask=cols < n_cols, other=0.0)
    xt = tl.trans(x)
    v = xt * g[:, None]
    total = tl.sum(v, axis=0)
    out = tl.trans(v / total[None, :])
    tl.store(y_ptr + rows[:, None] * n_cols + cols[None, :], out, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, g):
        v = x * g
        return v / v.sum(-1, keepdim=True)


class ModelNew(torch.nn.Module):
    def forward(self, x, g):
        rows, cols = x.shape
        y = torch.empty_like(x)
        grid = (triton.cdiv(rows, 8),)
        gated_norm_kernel[grid](x, g, y, rows, cols, BLOCK_R=8, BLOCK_C=triton.next_power_of_2(cols),
                                num_warps=4)
        return y


def get_inputs():
    return [torch.rand(ROWS, COLS, device=DEVICE) + 0.5, torch.rand(COLS, device=DEVICE) + 0.5]


def get_init_inputs():
    return []
