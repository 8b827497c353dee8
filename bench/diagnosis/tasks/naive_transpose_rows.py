"""x.t().contiguous() for a square fp32 matrix, one program per source row."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 8192

STRATA_TASK = {
    "category": "data-movement",
    "flops": "0",
    "bytes": "2 * N * N * 4",
    "interpret_shapes": {"N": 96},
}


@triton.jit
def transpose_rows_kernel(src, dst, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(src + row * n_cols + cols, mask=mask)
        tl.store(dst + cols * n_rows + row, v, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return x.t().contiguous()


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty((cols, rows), device=x.device, dtype=x.dtype)
        transpose_rows_kernel[(rows,)](x, y, rows, cols, BLOCK=1024, num_warps=4)
        return y


def get_inputs():
    return [torch.randn(N, N, device=DEVICE)]


def get_init_inputs():
    return []
