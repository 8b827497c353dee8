"""Row softmax for vocabulary-sized rows (32768 fp32 columns): too wide for one tile, so each
program walks its row in chunks."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 32768

STRATA_TASK = {
    "category": "softmax",
    "flops": "5 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4",
    "interpret_shapes": {"ROWS": 4, "COLS": 384},
}


@triton.jit
def softmax_chunked_kernel(x_ptr, y_ptr, row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * row_stride
    y_row = y_ptr + row * row_stride
    offs = tl.arange(0, BLOCK)

    running_max = tl.full((BLOCK,), -float("inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_row + start + offs, mask=start + offs < n_cols, other=-float("inf"))
        running_max = tl.maximum(running_max, x)
    row_max = tl.max(running_max, axis=0)

    partial_sum = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_row + start + offs, mask=start + offs < n_cols, other=-float("inf"))
        partial_sum += tl.exp(x - row_max)
    denom = tl.sum(partial_sum, axis=0)

    for start in range(0, n_cols, BLOCK):
        mask = start + offs < n_cols
        x = tl.load(x_row + start + offs, mask=mask, other=-float("inf"))
        tl.store(y_row + start + offs, tl.exp(x - row_max) / denom, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty_like(x)
        block = min(4096, triton.next_power_of_2(cols))
        softmax_chunked_kernel[(rows,)](x, y, x.stride(0), cols, BLOCK=block, num_warps=8)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
