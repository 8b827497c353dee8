"""Exclusive prefix sum over a sequence axis (B, S, D) -> (B, S, D), fp16 in, fp32 carry."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 16
SEQ = 4096
DIM = 1024

STRATA_TASK = {
    "category": "scan",
    "flops": "BATCH * SEQ * DIM",
    "bytes": "2 * BATCH * SEQ * DIM * 2",
    "extra_shapes": [{"BATCH": 2, "SEQ": 37, "DIM": 100}],
    "interpret_shapes": {"BATCH": 2, "SEQ": 64, "DIM": 128},
}


@triton.jit
def exclusive_scan_kernel(x_ptr, out_ptr, seq_len, dim, stride_b, stride_s,
                          BLOCK_D: tl.constexpr):
    # one program per (batch, block of channels): walk the sequence, carrying a running sum
    batch = tl.program_id(0)
    offs_d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    mask = offs_d < dim
    running = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for s in range(0, seq_len):
        offs = batch * stride_b + s * stride_s + offs_d
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + offs, running.to(tl.float16), mask=mask)
        running += x


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.cumsum(x, dim=1) - x


class ModelNew(torch.nn.Module):
    def forward(self, x):
        batch, seq_len, dim = x.shape
        out = torch.empty_like(x)
        grid = (batch, triton.cdiv(dim, 128))
        exclusive_scan_kernel[grid](x, out, seq_len, dim, x.stride(0), x.stride(1), BLOCK_D=128)
        return out


def get_inputs():
    return [torch.randn(BATCH, SEQ, DIM, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
