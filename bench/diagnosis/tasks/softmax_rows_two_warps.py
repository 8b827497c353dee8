"""Row softmax over fp32 rows of 8192, one program per row (whole row in registers)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 8192

STRATA_TASK = {
    "category": "softmax",
    "flops": "5 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4",
    "interpret_shapes": {"ROWS": 8, "COLS": 256},
}


@triton.jit
def softmax_fwd_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK)
    row = tl.load(in_ptr + row_idx * in_stride + col_offsets, mask=col_offsets < n_cols,
                  other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    tl.store(out_ptr + row_idx * out_stride + col_offsets, numerator / denominator,
             mask=col_offsets < n_cols)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty_like(x)
        softmax_fwd_kernel[(rows,)](y, x, x.stride(0), y.stride(0), cols,
                                    BLOCK=triton.next_power_of_2(cols), num_warps=2)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
