"""Row sums of an fp32 matrix, keepdim (torch.sum(x, dim=1, keepdim=True)).

NPUKernelBench level1/7_sum.py, case 29 (line 30 of its .json): x float32[4096, 18432], dim 1,
keepdim True. The code is written here; only the op and the input case come from NPUKernelBench
(MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 18432

STRATA_TASK = {
    "category": "reduction",
    "flops": "ROWS * COLS",
    "bytes": "(ROWS * COLS + ROWS) * 4",
    "interpret_shapes": {"ROWS": 5, "COLS": 3001},
}


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    partial = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        partial += tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(partial, axis=0))


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.sum(x, dim=1, keepdim=True)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        out = torch.empty(rows, 1, dtype=x.dtype, device=x.device)
        row_sum_kernel[(rows,)](x, out, cols, BLOCK_SIZE=2048)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
