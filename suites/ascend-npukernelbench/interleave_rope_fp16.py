"""Interleaved RoPE (torch_npu.npu_interleave_rope): the head dimension's even and odd elements
are de-interleaved into two halves, then rotated as half-mode RoPE with cos/sin, fp16.

NPUKernelBench level2/13_interleave_rope.py, case 14 (line 15 of its .json): x float16[2, 1, 256, 64],
cos and sin float16[2, 1, 256, 64]. The code is written here; only the op and the input case come
from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 2
SEQ = 256
HEAD_DIM = 64

STRATA_TASK = {
    "category": "llm_fused",
    "flops": "3 * BATCH * SEQ * HEAD_DIM",
    "bytes": "4 * BATCH * SEQ * HEAD_DIM * 2",
    "interpret_shapes": {"BATCH": 2, "SEQ": 19, "HEAD_DIM": 16},
}


@triton.jit
def interleave_rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, n_rows, HALF: tl.constexpr,
                           ROWS_PER_PROGRAM: tl.constexpr):
    rows = tl.program_id(0) * ROWS_PER_PROGRAM + tl.arange(0, ROWS_PER_PROGRAM)[:, None]
    cols = tl.arange(0, HALF)[None, :]
    mask = (rows < n_rows) & (cols < HALF)
    row_start = rows * (2 * HALF)
    # Stride-2 loads de-interleave the row (the op's point; a strided access on any backend).
    even = tl.load(x_ptr + row_start + 2 * cols, mask=mask).to(tl.float32)
    odd = tl.load(x_ptr + row_start + 2 * cols + 1, mask=mask).to(tl.float32)
    cos_low = tl.load(cos_ptr + row_start + cols, mask=mask).to(tl.float32)
    cos_high = tl.load(cos_ptr + row_start + HALF + cols, mask=mask).to(tl.float32)
    sin_low = tl.load(sin_ptr + row_start + cols, mask=mask).to(tl.float32)
    sin_high = tl.load(sin_ptr + row_start + HALF + cols, mask=mask).to(tl.float32)
    tl.store(out_ptr + row_start + cols, (even * cos_low - odd * sin_low).to(tl.float16),
             mask=mask)
    tl.store(out_ptr + row_start + HALF + cols, (odd * cos_high + even * sin_high).to(tl.float16),
             mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, cos, sin):
        x32 = x.float()
        even, odd = x32[..., 0::2], x32[..., 1::2]
        deinterleaved = torch.cat((even, odd), dim=-1)
        rotated = torch.cat((-odd, even), dim=-1)
        return (deinterleaved * cos.float() + rotated * sin.float()).to(x.dtype)


class ModelNew(torch.nn.Module):
    def forward(self, x, cos, sin):
        x, cos, sin = x.contiguous(), cos.contiguous(), sin.contiguous()
        head_dim = x.shape[-1]
        n_rows = x.numel() // head_dim
        out = torch.empty_like(x)
        ROWS_PER_PROGRAM = 16  # 32 programs at the real shape
        interleave_rope_kernel[(triton.cdiv(n_rows, ROWS_PER_PROGRAM),)](
            x, cos, sin, out, n_rows, HALF=head_dim // 2, ROWS_PER_PROGRAM=ROWS_PER_PROGRAM)
        return out


def get_inputs():
    shape = (BATCH, 1, SEQ, HEAD_DIM)
    return [torch.randn(shape, device=DEVICE, dtype=torch.float16),
            torch.randn(shape, device=DEVICE, dtype=torch.float16),
            torch.randn(shape, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
