"""Good task: row softmax over fp32 rows that fit one block (reduction + exp, memory-bound)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 8192
COLS = 1024

STRATA_TASK = {
    "category": "reduction",
    "flops": "5 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4",
    "extra_shapes": [{"ROWS": 37, "COLS": 999}],
    "interpret_shapes": {"ROWS": 64, "COLS": 256},
}


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    numerator = tl.exp(x)
    result = numerator / tl.sum(numerator, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, result, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        rows, cols = x.shape
        block = triton.next_power_of_2(cols)
        softmax_kernel[(rows,)](out, x, x.stride(0), out.stride(0), cols, BLOCK=block,
                                num_warps=4)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
