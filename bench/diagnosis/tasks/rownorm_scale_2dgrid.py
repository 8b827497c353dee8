"""F.normalize(x, dim=1) on fp32 rows of 16384: a 2-D grid, one program per (row, column
block), each program writing its block of the row scaled by the row's inverse L2 norm."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 16384

STRATA_TASK = {
    "category": "normalization",
    "flops": "3 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4",
    "interpret_shapes": {"ROWS": 3, "COLS": 640},
}


@triton.jit
def l2_normalize_kernel(x_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    col_block = tl.program_id(1)
    offs = tl.arange(0, BLOCK)
    row_ptr = x_ptr + row * stride
    sq = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        v = tl.load(row_ptr + start + offs, mask=start + offs < n_cols, other=0.0)
        sq += v * v
    inv_norm = 1.0 / tl.maximum(tl.sqrt(tl.sum(sq, axis=0)), eps)
    cols = col_block * BLOCK + offs
    x = tl.load(row_ptr + cols, mask=cols < n_cols)
    tl.store(y_ptr + row * stride + cols, x * inv_norm, mask=cols < n_cols)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.normalize(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty_like(x)
        block = 1024
        grid = (rows, triton.cdiv(cols, block))
        l2_normalize_kernel[grid](x, y, cols, x.stride(0), 1e-12, BLOCK=block, num_warps=4)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
