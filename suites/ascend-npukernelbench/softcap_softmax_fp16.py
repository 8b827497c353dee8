"""Attention-score soft-capping then softmax: softmax(30 * tanh(x / 30), dim=-1) in fp32, back to
fp16 (the forward of NPUKernelBench's softcapping attention softmax; it has no dropout).

NPUKernelBench level2/15_attention_softmax_with_softcapping_and_dropout.py, case 9 (line 10 of its
.json): attn_weights float16[2, 12, 256, 256]. The code is written here; only the op and the input
case come from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 2
HEADS = 12
SEQ_Q = 256
SEQ_K = 256
SOFTCAP = 30.0

STRATA_TASK = {
    "category": "softmax",
    "flops": "10 * BATCH * HEADS * SEQ_Q * SEQ_K",
    "bytes": "2 * BATCH * HEADS * SEQ_Q * SEQ_K * 2",
    "interpret_shapes": {"BATCH": 1, "HEADS": 2, "SEQ_Q": 9, "SEQ_K": 100},
}


@triton.jit
def softcap_softmax_kernel(x_ptr, out_ptr, n_rows, n_cols, softcap,
                           ROWS_PER_PROGRAM: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    rows = tl.program_id(0) * ROWS_PER_PROGRAM + tl.arange(0, ROWS_PER_PROGRAM)[:, None]
    cols = tl.arange(0, BLOCK_SIZE)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    # tanh(z) = 1 - 2 / (exp(2z) + 1): exp only, which every backend has as a vector op.
    capped = softcap * (1.0 - 2.0 / (tl.exp(2.0 * x / softcap) + 1.0))
    capped = tl.where(mask, capped, float("-inf"))
    numerator = tl.exp(capped - tl.max(capped, axis=1)[:, None])
    probabilities = numerator / tl.sum(numerator, axis=1)[:, None]
    tl.store(out_ptr + rows * n_cols + cols, probabilities.to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        capped = torch.tanh(x / SOFTCAP) * SOFTCAP
        return torch.softmax(capped, dim=-1, dtype=torch.float32).to(x.dtype)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        n_cols = x.shape[-1]
        n_rows = x.numel() // n_cols
        out = torch.empty_like(x)
        ROWS_PER_PROGRAM = 4  # 1536 programs at the real shape
        softcap_softmax_kernel[(triton.cdiv(n_rows, ROWS_PER_PROGRAM),)](
            x, out, n_rows, n_cols, SOFTCAP, ROWS_PER_PROGRAM=ROWS_PER_PROGRAM,
            BLOCK_SIZE=triton.next_power_of_2(n_cols))
        return out


def get_inputs():
    # Logits of attention scale, so the cap (30) bends some of them.
    return [torch.randn(BATCH, HEADS, SEQ_Q, SEQ_K, device=DEVICE, dtype=torch.float16) * 20]


def get_init_inputs():
    return []
