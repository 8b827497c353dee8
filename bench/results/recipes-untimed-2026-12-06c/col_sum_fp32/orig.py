"""Sum over the first dimension (columns) of an fp32 16384 x 4096 matrix."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 4096

STRATA_TASK = {
    "category": "reduction",
    "flops": "ROWS * COLS",
    "bytes": "(ROWS * COLS + COLS) * 4",
    "extra_shapes": [{"ROWS": 100, "COLS": 77}],
    "interpret_shapes": {"ROWS": 256, "COLS": 128},
}


@triton.jit
def col_sum_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row, stride_col,
                   BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    col_mask = cols < n_cols
    acc = tl.zeros((BLOCK_COLS,), dtype=tl.float32)
    for start in range(0, n_rows, BLOCK_ROWS):
        rows = start + tl.arange(0, BLOCK_ROWS)
        mask = (rows[:, None] < n_rows) & col_mask[None, :]
        x = tl.load(x_ptr + rows[:, None] * stride_row + cols[None, :] * stride_col, mask=mask,
                    other=0.0)
        acc += tl.sum(x, axis=0)
    tl.store(out_ptr + cols, acc, mask=col_mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.sum(x, dim=0)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        n_rows, n_cols = x.shape
        out = torch.empty(n_cols, device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(n_cols, 64),)
        col_sum_kernel[grid](x, out, n_rows, n_cols, x.stride(0), x.stride(1),
                             BLOCK_ROWS=64, BLOCK_COLS=64)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
