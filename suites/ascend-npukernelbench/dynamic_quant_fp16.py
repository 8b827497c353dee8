"""Per-token dynamic int8 quantization of fp16 activations: scale = max|x| / 127 per row,
q = round(x / scale) clamped to [-128, 127]; returns (q int8, scale fp32).

NPUKernelBench level1/29_dynamic_quant.py, case 33 (line 34 of its .json): x float16[789, 12288],
no smooth scales. The code is written here; only the op and the input case come from
NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 789
COLS = 12288

STRATA_TASK = {
    "category": "llm_fused",
    "flops": "4 * ROWS * COLS",
    "bytes": "ROWS * COLS * (2 + 1) + ROWS * 4",
    # The int8 output is compared with a tolerance, not exactly: a GPU's fp32 division may
    # differ from torch's by an ulp, which moves a value sitting on a .5 to the other integer.
    "tolerance": 1e-3,
    "interpret_shapes": {"ROWS": 5, "COLS": 3001},
}


@triton.jit
def round_half_even(v):
    """torch.round's rule (ties to even) from floor, which every backend lowers to vector code."""
    rounded = tl.floor(v + 0.5)
    is_tie = (rounded - v) == 0.5
    is_odd = (rounded - 2.0 * tl.floor(rounded * 0.5)) != 0.0
    return tl.where(is_tie & is_odd, rounded - 1.0, rounded)


@triton.jit
def dynamic_quant_kernel(x_ptr, q_ptr, scale_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    largest = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        largest = tl.maximum(largest, tl.abs(x))
    scale = tl.maximum(tl.max(largest, axis=0) / 127.0, 1e-10)
    tl.store(scale_ptr + row, scale)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask).to(tl.float32)
        q = tl.minimum(tl.maximum(round_half_even(x / scale), -128.0), 127.0)
        tl.store(q_ptr + row * n_cols + cols, q.to(tl.int8), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        x = x.float()
        scale = (x.abs().amax(dim=1, keepdim=True) / 127.0).clamp(min=1e-10)
        quantized = torch.round(x / scale).clamp(-128, 127).to(torch.int8)
        return quantized, scale.squeeze(1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        quantized = torch.empty(rows, cols, dtype=torch.int8, device=x.device)
        scale = torch.empty(rows, dtype=torch.float32, device=x.device)
        dynamic_quant_kernel[(rows,)](x, quantized, scale, cols, BLOCK_SIZE=4096)
        return quantized, scale


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
