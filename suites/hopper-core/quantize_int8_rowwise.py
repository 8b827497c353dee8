"""Per-row symmetric int8 quantization of fp16 activations: scale = absmax / 127, q = round(x / scale)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 16384
HIDDEN = 8192

STRATA_TASK = {
    "category": "llm_fused",
    "flops": "4 * TOKENS * HIDDEN",
    "bytes": "TOKENS * HIDDEN * (2 + 1) + TOKENS * 4",
    # x / scale is computed in fp32 here and in fp64 by the checker: values within rounding of a
    # .5 boundary may round to neighbouring integers, so exact int comparison is relaxed
    "tolerance": 1e-3,
    "extra_shapes": [{"TOKENS": 3, "HIDDEN": 1001}],
    "interpret_shapes": {"TOKENS": 8, "HIDDEN": 1024},
}


@triton.jit
def quantize_kernel(x_ptr, q_ptr, scale_ptr, n_cols, stride_x, stride_q,
                    BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    absmax = tl.max(tl.abs(x), axis=0)
    scale = tl.maximum(absmax, 1e-8) / 127.0
    scaled = x / scale
    # round half away from zero, then clamp
    q = tl.where(scaled >= 0, tl.floor(scaled + 0.5), tl.ceil(scaled - 0.5))
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    tl.store(q_ptr + row * stride_q + cols, q.to(tl.int8), mask=mask)
    tl.store(scale_ptr + row, scale)


class Model(torch.nn.Module):
    def forward(self, x):
        x32 = x if x.dtype == torch.float64 else x.float()  # fp64 when the checker upcasts
        scale = x32.abs().amax(dim=-1, keepdim=True).clamp(min=1e-8) / 127.0
        q = torch.round(x32 / scale).clamp(-127, 127).to(torch.int8)
        return q, scale.squeeze(-1).float()


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        q = torch.empty((rows, cols), device=x.device, dtype=torch.int8)
        scale = torch.empty(rows, device=x.device, dtype=torch.float32)
        quantize_kernel[(rows,)](x, q, scale, cols, x.stride(0), q.stride(0),
                                 BLOCK_SIZE=triton.next_power_of_2(cols))
        return q, scale


def get_inputs():
    return [torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
