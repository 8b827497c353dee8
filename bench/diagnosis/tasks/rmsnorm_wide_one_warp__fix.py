"""RMSNorm over wide fp32 rows, one program per row, the row held in registers."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
COLS = 16384

STRATA_TASK = {
    "category": "normalization",
    "flops": "4 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4 + COLS * 4",
    "tolerance": 1e-4,
    "interpret_shapes": {"ROWS": 8, "COLS": 512},
}


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(y_ptr + row * stride + cols, x * rstd * w, mask=mask)


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-6

    def forward(self, x, w):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * w


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-6

    def forward(self, x, w):
        y = torch.empty_like(x)
        rows, cols = x.shape
        rmsnorm_kernel[(rows,)](x, w, y, x.stride(0), cols, self.eps,
                                BLOCK=triton.next_power_of_2(cols), num_warps=16)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE), torch.randn(COLS, device=DEVICE)]


def get_init_inputs():
    return []
