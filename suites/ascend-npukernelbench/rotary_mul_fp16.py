"""Rotary position embedding, "half" mode (torch_npu.npu_rotary_mul): out = x * r1 +
rotate_half(x) * r2 with rotate_half(x) = cat(-x2, x1), fp16, r1/r2 shared by the heads.

NPUKernelBench level2/1_rotary_mul.py, case 32 (line 33 of its .json): input float16[1, 8, 512, 64],
r1 and r2 float16[1, 1, 512, 64], rotary_mode "half". The code is written here; only the op and
the input case come from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
HEADS = 8
SEQ = 512
HEAD_DIM = 64

STRATA_TASK = {
    "category": "llm_fused",
    "flops": "3 * HEADS * SEQ * HEAD_DIM",
    "bytes": "(2 * HEADS * SEQ * HEAD_DIM + 2 * SEQ * HEAD_DIM) * 2",
    "interpret_shapes": {"HEADS": 2, "SEQ": 37, "HEAD_DIM": 16},
}


@triton.jit
def rotary_mul_kernel(x_ptr, r1_ptr, r2_ptr, out_ptr, n_rows, seq_len, HALF: tl.constexpr,
                      ROWS_PER_PROGRAM: tl.constexpr):
    # A tile of whole rows (head, position); each row's two halves are loaded separately, so
    # rotate_half is a swap of the two tiles, not a gather.
    rows = tl.program_id(0) * ROWS_PER_PROGRAM + tl.arange(0, ROWS_PER_PROGRAM)[:, None]
    cols = tl.arange(0, HALF)[None, :]
    mask = (rows < n_rows) & (cols < HALF)
    x_at = rows * (2 * HALF) + cols
    r_at = (rows % seq_len) * (2 * HALF) + cols  # r1/r2 have one row per position
    x1 = tl.load(x_ptr + x_at, mask=mask).to(tl.float32)
    x2 = tl.load(x_ptr + x_at + HALF, mask=mask).to(tl.float32)
    r1_low = tl.load(r1_ptr + r_at, mask=mask).to(tl.float32)
    r1_high = tl.load(r1_ptr + r_at + HALF, mask=mask).to(tl.float32)
    r2_low = tl.load(r2_ptr + r_at, mask=mask).to(tl.float32)
    r2_high = tl.load(r2_ptr + r_at + HALF, mask=mask).to(tl.float32)
    tl.store(out_ptr + x_at, (x1 * r1_low - x2 * r2_low).to(tl.float16), mask=mask)
    tl.store(out_ptr + x_at + HALF, (x2 * r1_high + x1 * r2_high).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, r1, r2):
        first, second = x.chunk(2, dim=-1)
        return x * r1 + torch.cat((-second, first), dim=-1) * r2


class ModelNew(torch.nn.Module):
    def forward(self, x, r1, r2):
        x, r1, r2 = x.contiguous(), r1.contiguous(), r2.contiguous()
        seq_len, head_dim = x.shape[-2], x.shape[-1]
        n_rows = x.numel() // head_dim
        out = torch.empty_like(x)
        ROWS_PER_PROGRAM = 16  # 256 programs at the real shape
        rotary_mul_kernel[(triton.cdiv(n_rows, ROWS_PER_PROGRAM),)](
            x, r1, r2, out, n_rows, seq_len, HALF=head_dim // 2,
            ROWS_PER_PROGRAM=ROWS_PER_PROGRAM)
        return out


def get_inputs():
    x = torch.randn(1, HEADS, SEQ, HEAD_DIM, device=DEVICE, dtype=torch.float16)
    r1 = torch.randn(1, 1, SEQ, HEAD_DIM, device=DEVICE, dtype=torch.float16)
    r2 = torch.randn(1, 1, SEQ, HEAD_DIM, device=DEVICE, dtype=torch.float16)
    return [x, r1, r2]


def get_init_inputs():
    return []
