"""LayerNorm over the last dimension with weight and bias, fp16 (torch.nn.functional.layer_norm).

NPUKernelBench level1/10_layer_norm.py, case 2 (line 3 of its .json): x float16[1, 512, 4096],
normalized_shape [4096], weight and bias float16[4096]. The code is written here; only the op and
the input case come from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 512
HIDDEN = 4096
EPS = 1e-5

STRATA_TASK = {
    "category": "normalization",
    "flops": "8 * TOKENS * HIDDEN",
    "bytes": "(2 * TOKENS * HIDDEN + 2 * HIDDEN) * 2",
    "interpret_shapes": {"TOKENS": 6, "HIDDEN": 1000},
}


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    diff = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(diff * diff, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask).to(tl.float32)
    tl.store(out_ptr + row * n_cols + cols, (diff * rstd * w + b).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, weight, bias):
        return torch.nn.functional.layer_norm(x, (x.shape[-1],), weight, bias, eps=EPS)


class ModelNew(torch.nn.Module):
    def forward(self, x, weight, bias):
        x = x.contiguous()
        hidden = x.shape[-1]
        out = torch.empty_like(x)
        rows = x.numel() // hidden
        layer_norm_kernel[(rows,)](x, weight, bias, out, hidden, EPS,
                                   BLOCK_SIZE=triton.next_power_of_2(hidden))
        return out


def get_inputs():
    x = torch.randn(1, TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16)
    weight = (torch.rand(HIDDEN, device=DEVICE) + 0.5).to(torch.float16)
    bias = (torch.rand(HIDDEN, device=DEVICE) - 0.5).to(torch.float16)
    return [x, weight, bias]


def get_init_inputs():
    return []
