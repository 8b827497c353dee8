"""Row selection with an int64 index, torch.index_select(x, 0, index), fp32.

NPUKernelBench level1/18_index.py, case 20 (line 21 of its .json): x float32[4096, 4096], dim 0,
index int64[128]. The code is written here; only the op and the input case come from
NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 4096
PICKED = 128

STRATA_TASK = {
    "category": "indexing",
    "flops": "0",
    "bytes": "2 * PICKED * COLS * 4 + PICKED * 8",
    "interpret_shapes": {"ROWS": 50, "COLS": 1001, "PICKED": 9},
}


@triton.jit
def index_select_kernel(x_ptr, index_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    # One program per picked row: the index is read once, the row is copied contiguously.
    pid = tl.program_id(0)
    source_row = tl.load(index_ptr + pid)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        values = tl.load(x_ptr + source_row * n_cols + cols, mask=mask)
        tl.store(out_ptr + pid * n_cols + cols, values, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, index):
        return torch.index_select(x, 0, index)


class ModelNew(torch.nn.Module):
    def forward(self, x, index):
        x = x.contiguous()
        picked, cols = index.shape[0], x.shape[1]
        out = torch.empty(picked, cols, dtype=x.dtype, device=x.device)
        index_select_kernel[(picked,)](x, index, out, cols, BLOCK_SIZE=2048)
        return out


def get_inputs():
    x = torch.randn(ROWS, COLS, device=DEVICE)
    index = torch.randint(0, ROWS, (PICKED,), dtype=torch.int64, device=DEVICE)
    return [x, index]


def get_init_inputs():
    return []
