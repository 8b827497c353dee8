"""Row softmax over fp16 attention scores (32 x 16 x 1024 x 1024), each row in one block."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 32
HEADS = 16
QUERIES = 1024
KEYS = 1024

STRATA_TASK = {
    "category": "softmax",
    "flops": "5 * BATCH * HEADS * QUERIES * KEYS",
    "bytes": "2 * BATCH * HEADS * QUERIES * KEYS * 2",
    "extra_shapes": [{"BATCH": 1, "HEADS": 3, "QUERIES": 5, "KEYS": 333}],
    "interpret_shapes": {"BATCH": 1, "HEADS": 2, "QUERIES": 8, "KEYS": 256},
}


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * n_cols + cols, y.to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, scores):
        return torch.softmax(scores, dim=-1)


class ModelNew(torch.nn.Module):
    def forward(self, scores):
        scores = scores.contiguous()
        n_cols = scores.shape[-1]
        n_rows = scores.numel() // n_cols
        out = torch.empty_like(scores)
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        softmax_kernel[(n_rows,)](scores, out, n_cols, BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    return [torch.randn(BATCH, HEADS, QUERIES, KEYS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
