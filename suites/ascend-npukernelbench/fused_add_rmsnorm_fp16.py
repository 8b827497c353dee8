"""Residual add then RMSNorm with a weight, in fp32, back to fp16.

NPUKernelBench level2/18_fused_add_rmsnorm.py, case 27 (line 28 of its .json): hidden_states and
residual float16[256, 4096], weight float16[4096], eps 1e-07. The code is written here; only the
op and the input case come from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 256
HIDDEN = 4096
EPS = 1e-7

STRATA_TASK = {
    "category": "normalization",
    "flops": "5 * TOKENS * HIDDEN",
    "bytes": "(3 * TOKENS * HIDDEN + HIDDEN) * 2",
    "interpret_shapes": {"TOKENS": 6, "HIDDEN": 1000},
}


@triton.jit
def fused_add_rmsnorm_kernel(h_ptr, r_ptr, w_ptr, out_ptr, n_cols, eps,
                             BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    h = tl.load(h_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    x = h + r
    inv_rms = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    tl.store(out_ptr + row * n_cols + cols, (x * inv_rms * w).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, hidden_states, residual, weight):
        x = hidden_states.float() + residual.float()
        normed = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + EPS)
        return (normed * weight.float()).to(hidden_states.dtype)


class ModelNew(torch.nn.Module):
    def forward(self, hidden_states, residual, weight):
        hidden_states, residual = hidden_states.contiguous(), residual.contiguous()
        rows, cols = hidden_states.shape
        out = torch.empty_like(hidden_states)
        fused_add_rmsnorm_kernel[(rows,)](hidden_states, residual, weight, out, cols, EPS,
                                          BLOCK_SIZE=triton.next_power_of_2(cols))
        return out


def get_inputs():
    return [torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16),
            torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16),
            (torch.rand(HIDDEN, device=DEVICE) + 0.5).to(torch.float16)]


def get_init_inputs():
    return []
