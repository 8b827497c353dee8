"""Floor division of an int32 tensor by a one-element int32 divisor (torch.floor_divide).

NPUKernelBench level0/2_floor_divide.py, case 8 (line 9 of its .json): x int32[257, 9, 9, 257],
y int32[1]. The code is written here; only the op and the input case come from NPUKernelBench
(MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
D0 = 257
D1 = 9
D2 = 9
D3 = 257

STRATA_TASK = {
    "category": "elementwise",
    "flops": "D0 * D1 * D2 * D3",
    "bytes": "2 * D0 * D1 * D2 * D3 * 4 + 4",
    "interpret_shapes": {"D0": 3, "D3": 67},
}


@triton.jit
def floor_divide_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr)  # the one-element divisor, broadcast
    quotient = x // y
    remainder = x - quotient * y
    # Integer division truncates toward zero; floor division rounds down when the signs differ.
    needs_floor = (remainder != 0) & ((remainder < 0) != (y < 0))
    quotient = tl.where(needs_floor, quotient - 1, quotient)
    tl.store(out_ptr + offsets, quotient, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, y):
        return torch.floor_divide(x, y)


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        x = x.contiguous()
        out = torch.empty_like(x)
        n_elements = x.numel()
        BLOCK_SIZE = 2048  # 2613 programs at the real shape
        floor_divide_kernel[(triton.cdiv(n_elements, BLOCK_SIZE),)](
            x, y, out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    x = torch.randint(-1000, 1000, (D0, D1, D2, D3), dtype=torch.int32, device=DEVICE)
    sign = 1 - 2 * torch.randint(0, 2, (1,), dtype=torch.int32, device=DEVICE)
    y = sign * torch.randint(1, 20, (1,), dtype=torch.int32, device=DEVICE)  # never zero
    return [x, y]


def get_init_inputs():
    return []
