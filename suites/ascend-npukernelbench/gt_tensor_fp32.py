"""Element-wise greater-than of two fp32 tensors of one shape into a bool tensor (torch.gt).

NPUKernelBench level0/15_gt_tensor.py, case 7 (line 8 of its .json): self and other
fp32[21, 1, 9, 9, 1, 17, 20, 9]. The code is written here; only the op and the input case come
from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
D0 = 21
D2 = 9
D3 = 9
D5 = 17
D6 = 20
D7 = 9

STRATA_TASK = {
    "category": "elementwise",
    "flops": "D0 * D2 * D3 * D5 * D6 * D7",
    "bytes": "D0 * D2 * D3 * D5 * D6 * D7 * (4 + 4 + 1)",
    "interpret_shapes": {"D0": 3, "D5": 5, "D6": 7},
}


@triton.jit
def gt_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, (x > y).to(tl.int8), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, y):
        return torch.gt(x, y)


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        x, y = x.contiguous(), y.contiguous()
        out = torch.empty(x.shape, dtype=torch.bool, device=x.device)
        n_elements = x.numel()
        BLOCK_SIZE = 4096  # 1265 programs at the real shape
        # The kernel writes bytes: an int8 view of the bool output keeps the stores i8.
        gt_kernel[(triton.cdiv(n_elements, BLOCK_SIZE),)](x, y, out.view(torch.int8), n_elements,
                                                          BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    shape = (D0, 1, D2, D3, 1, D5, D6, D7)
    return [torch.randn(shape, device=DEVICE), torch.randn(shape, device=DEVICE)]


def get_init_inputs():
    return []
