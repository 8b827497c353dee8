"""Diagonal linear recurrence h[t] = a[t] * h[t-1] + x[t] over time (the scan of a linear RNN /
state-space layer), fp32 (B, T, D), each program owning a band of channels."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 8
SEQ = 4096
DIM = 2048

STRATA_TASK = {
    "category": "scan",
    "flops": "2 * BATCH * SEQ * DIM",
    "bytes": "3 * BATCH * SEQ * DIM * 4",
    "interpret_shapes": {"BATCH": 2, "SEQ": 128, "DIM": 32},
    "tolerance": 1e-4,
}


@triton.jit
def recurrence_kernel(a_ptr, x_ptr, h_ptr, seq_len, dim, stride_b, stride_t,
                      BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    dmask = d < dim
    base = b * stride_b + d
    h = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for t in range(0, seq_len):
        a_t = tl.load(a_ptr + base + t * stride_t, mask=dmask, other=1.0)
        x_t = tl.load(x_ptr + base + t * stride_t, mask=dmask, other=0.0)
        h = a_t * h + x_t
        tl.store(h_ptr + base + t * stride_t, h, mask=dmask)


def reference_scan(a, x):
    h = torch.zeros_like(x[:, 0])
    out = torch.empty_like(x)
    for t in range(x.shape[1]):
        h = a[:, t] * h + x[:, t]
        out[:, t] = h
    return out


class Model(torch.nn.Module):
    def forward(self, a, x):
        return reference_scan(a, x)


class ModelNew(torch.nn.Module):
    def forward(self, a, x):
        batch, seq, dim = x.shape
        h = torch.empty_like(x)
        grid = (batch, triton.cdiv(dim, 128))
        recurrence_kernel[grid](a, x, h, seq, dim, x.stride(0), x.stride(1), BLOCK_T=64,
                                BLOCK_D=128, num_warps=4)
        return h


def get_inputs():
    return [torch.rand(BATCH, SEQ, DIM, device=DEVICE) * 0.2 + 0.8,
            torch.randn(BATCH, SEQ, DIM, device=DEVICE)]


def get_init_inputs():
    return []
