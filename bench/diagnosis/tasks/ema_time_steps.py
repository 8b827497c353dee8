"""Exponential moving average over time, h_t = a * h_{t-1} + (1 - a) * x_t, of an fp32
(batch 8, time 4096, channels 4096) sequence; programs own channel blocks and step through time."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
B = 8
T = 4096
D = 4096
ALPHA = 0.9

STRATA_TASK = {
    "category": "scan",
    "bytes": "2 * B * T * D * 4",
    "interpret_shapes": {"B": 2, "T": 40, "D": 96},
    "tolerance": 1e-4,
}


@triton.jit
def ema_kernel(x_ptr, h_ptr, seq_len, channels, alpha, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    dmask = d < channels
    base = b * seq_len * channels + d
    h = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for t in range(0, seq_len):
        x_t = tl.load(x_ptr + base + t * channels, mask=dmask, other=0.0)
        h = alpha * h + (1.0 - alpha) * x_t
        tl.store(h_ptr + base + t * channels, h, mask=dmask)


class Model(torch.nn.Module):
    def forward(self, x):
        h = torch.zeros_like(x[:, 0])
        out = []
        for t in range(x.shape[1]):
            h = ALPHA * h + (1.0 - ALPHA) * x[:, t]
            out.append(h)
        return torch.stack(out, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        b, t, d = x.shape
        h = torch.empty_like(x)
        ema_kernel[(b, triton.cdiv(d, 128))](x, h, t, d, ALPHA, BLOCK_D=128, num_warps=4)
        return h


def get_inputs():
    return [torch.randn(B, T, D, device=DEVICE)]


def get_init_inputs():
    return []
