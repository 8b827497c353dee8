"""Residual add + RMSNorm of a transformer block (fp16 hidden states of 4096): the residual sum
is computed in torch and normalised in fp32 by the kernel."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 32768
HIDDEN = 4096
EPS = 1e-6

STRATA_TASK = {
    "category": "normalization",
    "flops": "5 * TOKENS * HIDDEN",
    "bytes": "3 * TOKENS * HIDDEN * 2 + HIDDEN * 2",
    "precision": "fp16",
    "interpret_shapes": {"TOKENS": 4, "HIDDEN": 256},
}


@triton.jit
def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride + cols, x * rstd * w, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, residual, weight):
        h = x.float() + residual.float()
        return (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + EPS) * weight.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, residual, weight):
        h = (x + residual).float()
        y = torch.empty_like(h)
        rows, cols = h.shape
        rmsnorm_fwd[(rows,)](h, weight, y, h.stride(0), cols, EPS,
                             BLOCK=triton.next_power_of_2(cols), num_warps=8)
        return y.half()


def get_inputs():
    return [torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16),
            torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16),
            torch.randn(HIDDEN, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
