"""Logical and of int32[21, 9, 17, 20] and int32[21, 1, 17, 20] (broadcast on dim 1) into bool.

NPUKernelBench level0/1_logical_and.py, case 8 (line 9 of its .json). The code is written here;
only the op and the input case come from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
D0 = 21
D1 = 9
D2 = 17
D3 = 20

STRATA_TASK = {
    "category": "elementwise",
    "flops": "D0 * D1 * D2 * D3",
    "bytes": "D0 * D1 * D2 * D3 * (4 + 1) + D0 * D2 * D3 * 4",
    "interpret_shapes": {"D0": 3, "D1": 5, "D2": 7},
}


@triton.jit
def logical_and_kernel(x_ptr, y_ptr, out_ptr, repeat, row_length, BLOCK_SIZE: tl.constexpr):
    # Row-blocked: program `row` covers x[d0, d1, :, :]; y has one row per d0, so the broadcast
    # costs one scalar division per program instead of a div/mod per element.
    row = tl.program_id(0)
    y_row = row // repeat
    for start in range(0, row_length, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < row_length
        x = tl.load(x_ptr + row * row_length + cols, mask=mask)
        y = tl.load(y_ptr + y_row * row_length + cols, mask=mask)
        both = (x != 0) & (y != 0)
        tl.store(out_ptr + row * row_length + cols, both.to(tl.int8), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, y):
        return torch.logical_and(x, y)


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        x, y = x.contiguous(), y.contiguous()
        d0, d1, d2, d3 = x.shape
        out = torch.empty(x.shape, dtype=torch.bool, device=x.device)
        # The kernel writes bytes: an int8 view of the bool output keeps the stores i8.
        logical_and_kernel[(d0 * d1,)](x, y, out.view(torch.int8), d1, d2 * d3, BLOCK_SIZE=512)
        return out


def get_inputs():
    # Few values, many zeros: both outcomes of the and are common.
    x = torch.randint(-2, 3, (D0, D1, D2, D3), dtype=torch.int32, device=DEVICE)
    y = torch.randint(-2, 3, (D0, 1, D2, D3), dtype=torch.int32, device=DEVICE)
    return [x, y]


def get_init_inputs():
    return []
