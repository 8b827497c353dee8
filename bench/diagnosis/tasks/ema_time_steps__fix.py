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
def _affine_combine(a_l, x_l, a_r, x_r):
    return a_l * a_r, x_l * a_r + x_r


@triton.jit
def ema_kernel(x_ptr, h_ptr, seq_len, channels, alpha, BLOCK_D: tl.constexpr,
               BLOCK_T: tl.constexpr):
    b = tl.program_id(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    dmask = d < channels
    base = b * seq_len * channels + d
    h = tl.zeros((BLOCK_D,), dtype=tl.float32)
    ts = tl.arange(0, BLOCK_T)
    for t0 in range(0, seq_len, BLOCK_T):
        offs = base[None, :] + (t0 + ts)[:, None] * channels
        mask = ((t0 + ts)[:, None] < seq_len) & dmask[None, :]
        x_blk = tl.load(x_ptr + offs, mask=mask, other=0.0)
        a_blk = tl.where(mask, alpha, 1.0) + tl.zeros_like(x_blk)
        a_cum, x_cum = tl.associative_scan((a_blk, (1.0 - alpha) * x_blk), 0, _affine_combine)
        h_blk = a_cum * h[None, :] + x_cum
        tl.store(h_ptr + offs, h_blk, mask=mask)
        h = tl.sum(tl.where((ts == BLOCK_T - 1)[:, None], h_blk, 0.0), axis=0)


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
        ema_kernel[(b, triton.cdiv(d, 128))](x, h, t, d, ALPHA, BLOCK_D=128, BLOCK_T=32,
                                             num_warps=8)
        return h


def get_inputs():
    return [torch.randn(B, T, D, device=DEVICE)]


def get_init_inputs():
    return []
