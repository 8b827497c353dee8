"""Exact (erf) GELU over an fp16 activation tensor (torch.nn.functional.gelu).

NPUKernelBench level1/1_gelu.py, case 49 (line 50 of its .json): x float16[789, 12288],
approximate "none". The code is written here; only the op and the input case come from
NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 789
COLS = 12288

STRATA_TASK = {
    "category": "elementwise",
    "flops": "8 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2",
    "interpret_shapes": {"ROWS": 7, "COLS": 1001},
}


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offsets, y.to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n_elements = x.numel()
        BLOCK_SIZE = 4096  # 2367 programs at the real shape
        gelu_kernel[(triton.cdiv(n_elements, BLOCK_SIZE),)](x, out, n_elements,
                                                            BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
