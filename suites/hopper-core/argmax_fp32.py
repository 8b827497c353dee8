"""Argmax over the last dimension of fp32 logits (16384 x 8192) -> int64 indices."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 8192

STRATA_TASK = {
    "category": "reduction",
    "flops": "ROWS * COLS",
    "bytes": "ROWS * COLS * 4 + ROWS * 8",
    "extra_shapes": [{"ROWS": 7, "COLS": 1337}],
    "interpret_shapes": {"ROWS": 8, "COLS": 2048},
}


@triton.jit
def argmax_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    best_val = -float("inf")
    best_idx = 0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=-float("inf"))
        block_max = tl.max(x, axis=0)
        # first index holding the block's max, so ties resolve to the lowest index like torch
        block_idx = tl.min(tl.where(x == block_max, cols, n_cols), axis=0)
        better = block_max > best_val
        best_idx = tl.where(better, block_idx, best_idx)
        best_val = tl.where(better, block_max, best_val)
    tl.store(out_ptr + row, best_idx.to(tl.int64))


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.argmax(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty(rows, device=x.device, dtype=torch.int64)
        argmax_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
