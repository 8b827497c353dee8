"""SwiGLU (activation on the left half) times per-group smooth scales, then per-token dynamic int8
quantization; returns (q int8, dynamic scale = 127 / max|y| per row, fp32).

NPUKernelBench level2/10_swiglu_quant.py, case 15 (line 16 of its .json): x float16[288, 576],
smooth_scales float32[3, 288], group_index int32[3] (cumulative row ends), activate_left True,
quant_mode 1 (dynamic), dst_type int8. The code is written here; only the op and the input case
come from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 288
COLS = 576
GROUPS = 3

STRATA_TASK = {
    "category": "llm_fused",
    "flops": "8 * ROWS * COLS // 2",
    "bytes": "ROWS * COLS * 2 + ROWS * COLS // 2 + GROUPS * COLS // 2 * 4 + ROWS * 4",
    # The int8 output is compared with a tolerance, not exactly: an ulp of difference in the
    # sigmoid or the division moves a value sitting on a .5 to the other integer.
    "tolerance": 1e-3,
    "interpret_shapes": {"ROWS": 11, "COLS": 90},
}


@triton.jit
def round_half_even(v):
    """torch.round's rule (ties to even) from floor, which every backend lowers to vector code."""
    rounded = tl.floor(v + 0.5)
    is_tie = (rounded - v) == 0.5
    is_odd = (rounded - 2.0 * tl.floor(rounded * 0.5)) != 0.0
    return tl.where(is_tie & is_odd, rounded - 1.0, rounded)


@triton.jit
def swiglu_quant_kernel(x_ptr, smooth_ptr, group_end_ptr, q_ptr, scale_ptr, half, num_groups,
                        BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    # The row's group: how many cumulative group ends it has passed (a few scalar loads).
    group = 0
    for k in range(0, num_groups):
        group += (row >= tl.load(group_end_ptr + k)).to(tl.int32)
    in_a_group = group < num_groups
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < half
    left = tl.load(x_ptr + row * 2 * half + cols, mask=mask, other=0.0).to(tl.float32)
    right = tl.load(x_ptr + row * 2 * half + half + cols, mask=mask, other=0.0).to(tl.float32)
    smooth = tl.load(smooth_ptr + tl.minimum(group, num_groups - 1) * half + cols, mask=mask)
    y = left / (1.0 + tl.exp(-left)) * right
    y = tl.where(in_a_group, y * smooth, y)  # rows past the last group end are not smoothed
    scale = 127.0 / tl.maximum(tl.max(tl.abs(y), axis=0), 1e-10)
    tl.store(scale_ptr + row, scale)
    q = round_half_even(tl.minimum(tl.maximum(y * scale, -128.0), 127.0))
    tl.store(q_ptr + row * half + cols, q.to(tl.int8), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, smooth_scales, group_index):
        left, right = x.float().chunk(2, dim=-1)
        y = torch.nn.functional.silu(left) * right
        start = 0
        for group, end in enumerate(group_index.tolist()):
            y[start:end] = y[start:end] * smooth_scales[group].float()
            start = end
        scale = 127.0 / y.abs().amax(dim=-1, keepdim=True).clamp(min=1e-10)
        quantized = torch.round((y * scale).clamp(-128, 127)).to(torch.int8)
        return quantized, scale.squeeze(-1)


class ModelNew(torch.nn.Module):
    def forward(self, x, smooth_scales, group_index):
        x = x.contiguous()
        rows, half = x.shape[0], x.shape[1] // 2
        quantized = torch.empty(rows, half, dtype=torch.int8, device=x.device)
        scale = torch.empty(rows, dtype=torch.float32, device=x.device)
        swiglu_quant_kernel[(rows,)](x, smooth_scales.contiguous(), group_index, quantized, scale,
                                     half, group_index.shape[0],
                                     BLOCK_SIZE=triton.next_power_of_2(half))
        return quantized, scale


def get_inputs():
    x = torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16)
    smooth_scales = torch.rand(GROUPS, COLS // 2, device=DEVICE) + 0.5
    # Cumulative row ends, ascending; the last may stop short of ROWS (those rows stay unscaled).
    cuts = torch.sort(torch.randint(0, ROWS + 1, (GROUPS,), device=DEVICE)).values
    return [x, smooth_scales, cuts.to(torch.int32)]


def get_init_inputs():
    return []
