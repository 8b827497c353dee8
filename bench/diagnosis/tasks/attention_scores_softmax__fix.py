"""Softmax over the key axis of attention scores (B, H, S, S) in fp16, one launch per
(batch, head) slice as the scores are produced head by head."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 8
HEADS = 16
SEQ = 512

STRATA_TASK = {
    "category": "softmax",
    "flops": "5 * BATCH * HEADS * SEQ * SEQ",
    "bytes": "2 * BATCH * HEADS * SEQ * SEQ * 2",
    "precision": "fp16",
    "interpret_shapes": {"BATCH": 2, "HEADS": 2, "SEQ": 64},
}


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride_row, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride_row + cols, (e / tl.sum(e, axis=0)).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, scores):
        return torch.softmax(scores.float(), dim=-1).half()


class ModelNew(torch.nn.Module):
    def forward(self, scores):
        batch, heads, seq, keys = scores.shape
        out = torch.empty_like(scores)
        block = triton.next_power_of_2(keys)
        softmax_kernel[(batch * heads * seq,)](scores, out, scores.stride(2), keys, BLOCK=block,
                                               num_warps=4)
        return out


def get_inputs():
    return [torch.randn(BATCH, HEADS, SEQ, SEQ, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
