"""SwiGLU on the last dimension: a, b = chunk(x, 2); silu(a) * b, fp32.

NPUKernelBench level1/2_swi_glu.py, case 46 (line 47 of its .json): x float32[221, 12288], dim -1.
The code is written here; only the op and the input case come from NPUKernelBench
(MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 221
COLS = 12288

STRATA_TASK = {
    "category": "llm_fused",
    "flops": "5 * ROWS * COLS // 2",
    "bytes": "(ROWS * COLS + ROWS * COLS // 2) * 4",
    "interpret_shapes": {"ROWS": 5, "COLS": 3002},
}


@triton.jit
def swi_glu_kernel(x_ptr, out_ptr, half, blocks_per_row, BLOCK_SIZE: tl.constexpr):
    # 1-D grid over (row, column block): one scalar div/mod per program, none per element.
    pid = tl.program_id(0)
    row = pid // blocks_per_row
    cols = (pid % blocks_per_row) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < half
    a = tl.load(x_ptr + row * 2 * half + cols, mask=mask)
    b = tl.load(x_ptr + row * 2 * half + half + cols, mask=mask)
    silu = a / (1.0 + tl.exp(-a))
    tl.store(out_ptr + row * half + cols, silu * b, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        a, b = torch.chunk(x, 2, dim=-1)
        return torch.nn.functional.silu(a) * b


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        half = cols // 2
        out = torch.empty(rows, half, dtype=x.dtype, device=x.device)
        BLOCK_SIZE = 2048  # 663 programs at the real shape
        blocks_per_row = triton.cdiv(half, BLOCK_SIZE)
        swi_glu_kernel[(rows * blocks_per_row,)](x, out, half, blocks_per_row,
                                                 BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
