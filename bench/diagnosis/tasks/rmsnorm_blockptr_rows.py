"""fp16 RMSNorm through block pointers: each program normalises four rows of 4096 features."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 65536
COLS = 4096
EPS = 1e-6

STRATA_TASK = {
    "category": "normalization",
    "flops": "4 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2 + COLS * 2",
    "precision": "fp16",
    "interpret_shapes": {"ROWS": 8, "COLS": 256},
}


@triton.jit
def rmsnorm_rows_kernel(x_ptr, w_ptr, y_ptr, n_rows, n_cols, stride, eps,
                        ROWS_PER_PROG: tl.constexpr, BLOCK_N: tl.constexpr):
    row0 = tl.program_id(0) * ROWS_PER_PROG
    x_blk = tl.make_block_ptr(x_ptr, shape=(n_rows, n_cols), strides=(stride, 1),
                              offsets=(row0, 0), block_shape=(ROWS_PER_PROG, BLOCK_N),
                              order=(1, 0))
    y_blk = tl.make_block_ptr(y_ptr, shape=(n_rows, n_cols), strides=(stride, 1),
                              offsets=(row0, 0), block_shape=(ROWS_PER_PROG, BLOCK_N),
                              order=(1, 0))
    x = tl.load(x_blk, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=1) / n_cols + eps)
    cols = tl.arange(0, BLOCK_N)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    tl.store(y_blk, (x * rstd[:, None] * w[None, :]).to(tl.float16), boundary_check=(0, 1))


class Model(torch.nn.Module):
    def forward(self, x, w):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS) * w.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, w):
        rows, cols = x.shape
        y = torch.empty_like(x)
        rmsnorm_rows_kernel[(triton.cdiv(rows, 4),)](x, w, y, rows, cols, x.stride(0), EPS,
                                                     ROWS_PER_PROG=4,
                                                     BLOCK_N=triton.next_power_of_2(cols),
                                                     num_warps=8)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16),
            torch.randn(COLS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
