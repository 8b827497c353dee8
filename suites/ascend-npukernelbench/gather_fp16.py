"""torch.gather along dim 1 with an int64 index of half the width, fp16.

NPUKernelBench level1/20_gather.py, case 42 (line 43 of its .json): x float16[2048, 2048], dim 1,
index int64[2048, 1024]. The code is written here; only the op and the input case come from
NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 2048
COLS = 2048
PICKED = 1024

STRATA_TASK = {
    "category": "indexing",
    "flops": "0",
    "bytes": "ROWS * PICKED * (8 + 2 + 2)",
    "interpret_shapes": {"ROWS": 6, "COLS": 301, "PICKED": 150},
}


@triton.jit
def gather_kernel(x_ptr, index_ptr, out_ptr, n_cols, n_picked, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_picked
    picked = tl.load(index_ptr + row * n_picked + cols, mask=mask, other=0)
    # Data-dependent addresses within the row: an indirect (discrete) load.
    values = tl.load(x_ptr + row * n_cols + picked, mask=mask)
    tl.store(out_ptr + row * n_picked + cols, values, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, index):
        return torch.gather(x, 1, index)


class ModelNew(torch.nn.Module):
    def forward(self, x, index):
        x, index = x.contiguous(), index.contiguous()
        rows, picked = index.shape
        out = torch.empty(rows, picked, dtype=x.dtype, device=x.device)
        gather_kernel[(rows,)](x, index, out, x.shape[1], picked,
                               BLOCK_SIZE=triton.next_power_of_2(picked))
        return out


def get_inputs():
    x = torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16)
    index = torch.randint(0, COLS, (ROWS, PICKED), dtype=torch.int64, device=DEVICE)
    return [x, index]


def get_init_inputs():
    return []
