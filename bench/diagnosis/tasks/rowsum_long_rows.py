"""x.sum(dim=1) for a short, very wide fp32 matrix (64 rows of 2^20): one program per row."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 64
COLS = 1 << 20

STRATA_TASK = {
    "category": "reduction",
    "flops": "ROWS * COLS",
    "bytes": "ROWS * COLS * 4 + ROWS * 4",
    "interpret_shapes": {"ROWS": 3, "COLS": 5000},
}


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        acc += tl.load(x_ptr + row * stride_row + start + offs, mask=start + offs < n_cols,
                       other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


class Model(torch.nn.Module):
    def forward(self, x):
        return x.sum(dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty(rows, device=x.device, dtype=torch.float32)
        row_sum_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK=4096, num_warps=8)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
