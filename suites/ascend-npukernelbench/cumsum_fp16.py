"""Inclusive prefix sum along dim 1 of an fp16 matrix (torch.cumsum).

NPUKernelBench level1/5_cumsum.py, case 41 (line 42 of its .json): x float16[100, 2007], dim 1.
The code is written here; only the op and the input case come from NPUKernelBench
(MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 100
COLS = 2007

STRATA_TASK = {
    "category": "scan",
    "flops": "ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2",
    "interpret_shapes": {"ROWS": 6, "COLS": 301},
}


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    # The padding must be 0: it sits after the row's last element, so it adds nothing.
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + row * n_cols + cols, tl.cumsum(x, axis=0).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.cumsum(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        out = torch.empty_like(x)
        cumsum_kernel[(rows,)](x, out, cols, BLOCK_SIZE=triton.next_power_of_2(cols))
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
