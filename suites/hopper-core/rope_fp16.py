"""Rotary position embedding (LLaMA, rotate-half) applied to fp16 queries (B, S, H, D)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 8
SEQ = 4096
HEADS = 32
HEAD_DIM = 128

STRATA_TASK = {
    "category": "llm_fused",
    "flops": "3 * BATCH * SEQ * HEADS * HEAD_DIM",
    "bytes": "2 * BATCH * SEQ * HEADS * HEAD_DIM * 2 + SEQ * HEAD_DIM * 4",
    "extra_shapes": [{"BATCH": 1, "SEQ": 7, "HEADS": 3}],
    "interpret_shapes": {"BATCH": 1, "SEQ": 16, "HEADS": 4, "HEAD_DIM": 64},
}


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, seq_len, n_heads, stride_b, stride_s,
                stride_h, HALF: tl.constexpr):
    # one program per (batch, position, head): rotate the two halves of one head vector
    pid = tl.program_id(0)
    head = pid % n_heads
    pos = (pid // n_heads) % seq_len
    batch = pid // (n_heads * seq_len)
    base = batch * stride_b + pos * stride_s + head * stride_h
    offs = tl.arange(0, HALF)
    x1 = tl.load(x_ptr + base + offs).to(tl.float32)
    x2 = tl.load(x_ptr + base + HALF + offs).to(tl.float32)
    cos = tl.load(cos_ptr + pos * HALF + offs)
    sin = tl.load(sin_ptr + pos * HALF + offs)
    tl.store(out_ptr + base + offs, (x1 * cos - x2 * sin).to(tl.float16))
    tl.store(out_ptr + base + HALF + offs, (x2 * cos + x1 * sin).to(tl.float16))


class Model(torch.nn.Module):
    def forward(self, x, cos, sin):
        # cos/sin: (S, D/2) fp32 tables; broadcast over batch and heads
        half = x.shape[-1] // 2
        x1, x2 = x[..., :half], x[..., half:]
        c = cos[None, :, None, :].to(x.dtype)
        s = sin[None, :, None, :].to(x.dtype)
        return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)


class ModelNew(torch.nn.Module):
    def forward(self, x, cos, sin):
        batch, seq_len, n_heads, head_dim = x.shape
        out = torch.empty_like(x)
        grid = (batch * seq_len * n_heads,)
        rope_kernel[grid](x, cos, sin, out, seq_len, n_heads, x.stride(0), x.stride(1),
                          x.stride(2), HALF=head_dim // 2)
        return out


def get_inputs():
    x = torch.randn(BATCH, SEQ, HEADS, HEAD_DIM, device=DEVICE, dtype=torch.float16)
    inv_freq = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2, device=DEVICE) / HEAD_DIM))
    angles = torch.arange(SEQ, device=DEVICE)[:, None] * inv_freq[None, :]
    return [x, torch.cos(angles), torch.sin(angles)]


def get_init_inputs():
    return []
