"""x.t().contiguous() of an fp32 (8192, 8192) matrix with 64x64 tiles on a 2-D grid."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 8192
COLS = 8192

STRATA_TASK = {
    "category": "data-movement",
    "flops": "0",
    "bytes": "2 * ROWS * COLS * 4",
    "interpret_shapes": {"ROWS": 96, "COLS": 160},
}


@triton.jit
def transpose_kernel(src, dst, n_rows, n_cols, stride_src, stride_dst, TILE: tl.constexpr):
    r = tl.program_id(0) * TILE + tl.arange(0, TILE)
    c = tl.program_id(1) * TILE + tl.arange(0, TILE)
    mask = (r[:, None] < n_rows) & (c[None, :] < n_cols)
    tile = tl.load(src + r[:, None] * stride_src + c[None, :], mask=mask)
    tl.store(dst + c[:, None] * stride_dst + r[None, :], tl.trans(tile), mask=tl.trans(mask))


class Model(torch.nn.Module):
    def forward(self, x):
        return x.t().contiguous()


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty((cols, rows), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(rows, 64), triton.cdiv(cols, 64))
        transpose_kernel[grid](x, y, rows, cols, x.stride(0), y.stride(0), TILE=64, num_warps=4)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
