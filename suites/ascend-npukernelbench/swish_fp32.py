"""Swish with a scale, x / (1 + exp(-beta * x)), over an fp32 tensor.

NPUKernelBench level0/12_swish.py, case 15 (line 16 of its .json): x float32[8, 21, 21, 1, 255, 7],
beta = -5. The code is written here; only the op and the input case come from NPUKernelBench
(MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
D0 = 8
D1 = 21
D2 = 21
D4 = 255
D5 = 7
BETA = -5.0

STRATA_TASK = {
    "category": "elementwise",
    "flops": "5 * D0 * D1 * D2 * D4 * D5",
    "bytes": "2 * D0 * D1 * D2 * D4 * D5 * 4",
    "interpret_shapes": {"D0": 2, "D1": 3, "D2": 5, "D4": 37},
}


@triton.jit
def swish_kernel(x_ptr, out_ptr, n_elements, beta, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x / (1.0 + tl.exp(-beta * x)), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, beta):
        return x / (1 + torch.exp(-beta * x))


class ModelNew(torch.nn.Module):
    def forward(self, x, beta):
        x = x.contiguous()
        out = torch.empty_like(x)
        n_elements = x.numel()
        BLOCK_SIZE = 4096  # 1538 programs at the real shape
        swish_kernel[(triton.cdiv(n_elements, BLOCK_SIZE),)](x, out, n_elements, beta,
                                                             BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    return [torch.randn(D0, D1, D2, 1, D4, D5, device=DEVICE), BETA]


def get_init_inputs():
    return []
