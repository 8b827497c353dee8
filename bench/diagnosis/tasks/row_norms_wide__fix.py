"""torch.linalg.vector_norm(x, dim=1) of wide fp32 rows (32768), one program per row."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 32768

STRATA_TASK = {
    "category": "reduction",
    "flops": "2 * ROWS * COLS",
    "bytes": "ROWS * COLS * 4 + ROWS * 4",
    "interpret_shapes": {"ROWS": 3, "COLS": 5000},
}


@triton.jit
def row_norm_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_ptr + row * stride + start + offs, mask=start + offs < n_cols, other=0.0)
        acc += x * x
    tl.store(out_ptr + row, tl.sqrt(tl.sum(acc, axis=0)))


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.linalg.vector_norm(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty(rows, device=x.device, dtype=torch.float32)
        row_norm_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK=2048, num_warps=8)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
