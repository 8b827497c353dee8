"""GPT-J style (interleaved) rotary embedding of fp16 query heads: features 2i and 2i+1 rotate
by the angle of position and pair i; one program per block of (token, head) rows."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SEQ = 8192
HEADS = 32
HEAD_DIM = 128

STRATA_TASK = {
    "category": "elementwise",
    "flops": "6 * SEQ * HEADS * HEAD_DIM",
    "bytes": "2 * SEQ * HEADS * HEAD_DIM * 2 + SEQ * HEAD_DIM * 4",
    "precision": "fp16",
    "interpret_shapes": {"SEQ": 8, "HEADS": 4, "HEAD_DIM": 32},
}


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, y_ptr, n_rows, heads, stride_row,
                HALF: tl.constexpr, BLOCK_R: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    pairs = tl.arange(0, HALF)
    mask = rows[:, None] < n_rows
    pos = rows // heads
    c = tl.load(cos_ptr + pos[:, None] * HALF + pairs[None, :], mask=mask, other=0.0)
    s = tl.load(sin_ptr + pos[:, None] * HALF + pairs[None, :], mask=mask, other=0.0)
    even = x_ptr + rows[:, None] * stride_row + 2 * pairs[None, :]
    x0 = tl.load(even, mask=mask, other=0.0).to(tl.float32)
    x1 = tl.load(even + 1, mask=mask, other=0.0).to(tl.float32)
    out = y_ptr + rows[:, None] * stride_row + 2 * pairs[None, :]
    tl.store(out, (x0 * c - x1 * s).to(tl.float16), mask=mask)
    tl.store(out + 1, (x0 * s + x1 * c).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, cos, sin):
        xf = x.float()
        c = cos[:, None, :]
        s = sin[:, None, :]
        y = torch.empty_like(xf)
        y[..., 0::2] = xf[..., 0::2] * c - xf[..., 1::2] * s
        y[..., 1::2] = xf[..., 0::2] * s + xf[..., 1::2] * c
        return y.half()


class ModelNew(torch.nn.Module):
    def forward(self, x, cos, sin):
        seq, heads, dim = x.shape
        y = torch.empty_like(x)
        rows = seq * heads
        rope_kernel[(triton.cdiv(rows, 32),)](x, cos, sin, y, rows, heads, dim, HALF=dim // 2,
                                              BLOCK_R=32, num_warps=4)
        return y


def get_inputs():
    angles = torch.arange(SEQ, device=DEVICE)[:, None] * \
        (10000.0 ** (-torch.arange(HEAD_DIM // 2, device=DEVICE) * 2.0 / HEAD_DIM))[None, :]
    return [torch.randn(SEQ, HEADS, HEAD_DIM, device=DEVICE, dtype=torch.float16),
            torch.cos(angles), torch.sin(angles)]


def get_init_inputs():
    return []
