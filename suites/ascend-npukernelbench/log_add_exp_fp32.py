"""log(exp(x) + exp(y)) of fp32[9] and fp32[8, 1], broadcast to [8, 9] (torch.logaddexp).

NPUKernelBench level0/17_log_add_exp.py, case 22 (line 23 of its .json): input fp32[9],
other fp32[8, 1]. The code is written here; only the op and the input case come from
NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 8
COLS = 9

STRATA_TASK = {
    "category": "elementwise",
    "flops": "5 * ROWS * COLS",
    "bytes": "(COLS + ROWS + ROWS * COLS) * 4",
    "interpret_shapes": {"ROWS": 8, "COLS": 9},
}


@triton.jit
def log_add_exp_kernel(x_ptr, y_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    # One program per output row: x is the row vector, y[row] the broadcast column value.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + cols, mask=mask)
    y = tl.load(y_ptr + row)
    larger = tl.maximum(x, y)
    # max + log(1 + exp(-|x - y|)): never overflows, unlike log(exp(x) + exp(y)).
    result = larger + tl.log(1.0 + tl.exp(-tl.abs(x - y)))
    tl.store(out_ptr + row * n_cols + cols, result, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, y):
        return torch.logaddexp(x, y)


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        rows, cols = y.shape[0], x.shape[0]
        out = torch.empty(rows, cols, dtype=x.dtype, device=x.device)
        log_add_exp_kernel[(rows,)](x.contiguous(), y.contiguous(), out, cols,
                                    BLOCK_SIZE=triton.next_power_of_2(cols))
        return out


def get_inputs():
    # The benchmark draws around means in [-100, 100] with std up to 25.
    x = torch.randn(COLS, device=DEVICE) * 10 + 20
    y = torch.randn(ROWS, 1, device=DEVICE) * 10 + 20
    return [x, y]


def get_init_inputs():
    return []
