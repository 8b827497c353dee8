"""Mean over the last dimension of fp16 activations (32 x 2048 x 4096 -> 32 x 2048)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 32
SEQ = 2048
HIDDEN = 4096

STRATA_TASK = {
    "category": "reduction",
    "flops": "BATCH * SEQ * HIDDEN",
    "bytes": "(BATCH * SEQ * HIDDEN + BATCH * SEQ) * 2",
    "extra_shapes": [{"BATCH": 3, "SEQ": 5, "HIDDEN": 1500}],
    "interpret_shapes": {"BATCH": 2, "SEQ": 8, "HIDDEN": 512},
}


@triton.jit
def row_mean_kernel(x_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        acc += x.to(tl.float32)
    mean = tl.sum(acc, axis=0) / n_cols
    tl.store(out_ptr + row, mean.to(tl.float16))


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.mean(x, dim=-1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        n_cols = x.shape[-1]
        n_rows = x.numel() // n_cols
        out = torch.empty(x.shape[:-1], device=x.device, dtype=x.dtype)
        row_mean_kernel[(n_rows,)](x, out, n_cols, BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(BATCH, SEQ, HIDDEN, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
