"""Row-wise scale of an fp16 matrix by a per-row factor (2-D grid over rows and column blocks)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 8192

STRATA_TASK = {
    "category": "elementwise",
    "flops": "ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2 + ROWS * 2",
    "interpret_shapes": {"ROWS": 16, "COLS": 256},
}


@triton.jit
def row_scale_kernel(x_ptr, s_ptr, o_ptr, stride_x, stride_o, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    s = tl.load(s_ptr + row)
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    tl.store(o_ptr + row * stride_o + cols, x * s, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, s):
        return x * s[:, None]


class ModelNew(torch.nn.Module):
    def forward(self, x, s):
        out = torch.empty_like(x)
        rows, cols = x.shape
        block = 1024
        grid = (rows, triton.cdiv(cols, block))
        row_scale_kernel[grid](x, s, out, x.stride(0), out.stride(0), cols, BLOCK=block, num_warps=4)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16),
            torch.randn(ROWS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
