"""Scale each fp32 row of 4096 by its gain, read from one column of a (rows, 8) per-row
statistics tensor."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 32768
COLS = 4096
STATS = 8

STRATA_TASK = {
    "category": "elementwise",
    "flops": "ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4 + ROWS * 4",
    "interpret_shapes": {"ROWS": 5, "COLS": 256},
}


@triton.jit
def row_gain_kernel(x_ptr, stats_ptr, y_ptr, n_cols, stride_x, stride_stats, gain_col,
                    BLOCK: tl.constexpr):
    row = tl.program_id(0)
    gain = tl.load(stats_ptr + row * stride_stats + gain_col)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask)
    tl.store(y_ptr + row * stride_x + cols, x * gain, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, stats):
        return x * stats[:, 3:4]


class ModelNew(torch.nn.Module):
    def forward(self, x, stats):
        rows, cols = x.shape
        y = torch.empty_like(x)
        row_gain_kernel[(rows,)](x, stats, y, cols, x.stride(0), stats.stride(0), 3,
                                 BLOCK=triton.next_power_of_2(cols), num_warps=8)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE), torch.rand(ROWS, STATS, device=DEVICE)]


def get_init_inputs():
    return []
