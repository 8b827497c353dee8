"""RMSNorm (LLaMA style, fp32 statistics) over bf16 tokens 32768 x 4096."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 32768
HIDDEN = 4096
EPS = 1e-6

STRATA_TASK = {
    "category": "normalization",
    "flops": "4 * TOKENS * HIDDEN",
    "bytes": "(2 * TOKENS * HIDDEN + HIDDEN) * 2",
    "extra_shapes": [{"TOKENS": 3, "HIDDEN": 999}],
    "interpret_shapes": {"TOKENS": 8, "HIDDEN": 512},
}


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, out_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(mean_sq + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    y = (x * rstd).to(tl.bfloat16).to(tl.float32) * w
    tl.store(out_ptr + row * stride + cols, y.to(tl.bfloat16), mask=mask)


class Model(torch.nn.Module):
    def __init__(self, hidden: int = HIDDEN):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.rand(hidden) + 0.5)

    def forward(self, x):
        variance = x.float().pow(2).mean(-1, keepdim=True)
        normed = x.float() * torch.rsqrt(variance + EPS)
        return self.weight.to(x.dtype) * normed.to(x.dtype)


class ModelNew(Model):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty_like(x)
        rms_norm_kernel[(rows,)](x, self.weight, out, x.stride(0), cols, EPS,
                                 BLOCK_SIZE=triton.next_power_of_2(cols))
        return out


def get_inputs():
    return [torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.bfloat16)]


def get_init_inputs():
    return [HIDDEN]
