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
                   BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr, SPLITS: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    col_mask = cols < n_cols
    acc = tl.zeros((BLOCK_COLS,), dtype=tl.float32)
    _split_len = tl.cdiv(tl.cdiv(n_rows, BLOCK_ROWS), SPLITS) * BLOCK_ROWS  # axis 1 splits the loop into SPLITS slices
    _split_lo = tl.program_id(1) * _split_len
    for start in range(_split_lo, tl.minimum(n_rows, _split_lo + _split_len), BLOCK_ROWS):
        rows = start + tl.arange(0, BLOCK_ROWS)
        mask = (rows[:, None] < n_rows) & col_mask[None, :]
        x = tl.load(x_ptr + rows[:, None] * stride_row + cols[None, :] * stride_col, mask=mask,
                    other=0.0)
        acc += tl.sum(x, axis=0)
    tl.atomic_add(out_ptr + cols, acc, mask=col_mask, sem="relaxed")


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.sum(x, dim=0)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        n_rows, n_cols = x.shape
        out = torch.zeros(n_cols, device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(n_cols, 8), 8)
        col_sum_kernel[grid](x, out, n_rows, n_cols, x.stride(0), x.stride(1),
                             BLOCK_ROWS=512, BLOCK_COLS=8, SPLITS=8)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
