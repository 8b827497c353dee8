"""RMSNorm of fp32 rows of 16384 features (4096 rows) with a learned gain; the whole row is one
block held by each program."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 16384
EPS = 1e-6

STRATA_TASK = {
    "category": "normalization",
    "bytes": "2 * ROWS * COLS * 4 + COLS * 4",
    "interpret_shapes": {"ROWS": 3, "COLS": 200},
    "tolerance": 1e-4,
}


@triton.jit
def rms_norm_row(x_ptr, w_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    inv = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(y_ptr + row * stride + cols, x * inv * w, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, w):
        return x * torch.rsqrt(x.pow(2).mean(dim=1, keepdim=True) + EPS) * w


class ModelNew(torch.nn.Module):
    def forward(self, x, w):
        rows, cols = x.shape
        y = torch.empty_like(x)
        rms_norm_row[(rows,)](x, w, y, cols, x.stride(0), EPS,
                              BLOCK=triton.next_power_of_2(cols), num_warps=16)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE), torch.rand(COLS, device=DEVICE) + 0.5]


def get_init_inputs():
    return []
