"""softmax(x, dim=0) of a (256, 65536) fp32 tensor: each program owns a band of columns and
reuses the library's last-axis softmax helper."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 256
COLS = 65536

STRATA_TASK = {
    "category": "softmax",
    "flops": "5 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4",
    "interpret_shapes": {"ROWS": 256, "COLS": 128},
}


@triton.jit
def _stable_softmax(x, AXIS: tl.constexpr):
    z = x - tl.expand_dims(tl.max(x, axis=AXIS), AXIS)
    num = tl.exp(z)
    return num / tl.expand_dims(tl.sum(num, axis=AXIS), AXIS)


@triton.jit
def column_softmax_kernel(x_ptr, y_ptr, n_cols, stride, ROWS: tl.constexpr,
                          BLOCK_C: tl.constexpr):
    rows = tl.arange(0, ROWS)
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    offs = rows[:, None] * stride + cols[None, :]
    mask = cols[None, :] < n_cols
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = _stable_softmax(x, 0)
    tl.store(y_ptr + offs, y, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=0)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty_like(x)
        block_c = 32
        column_softmax_kernel[(triton.cdiv(cols, block_c),)](x, y, cols, x.stride(0), ROWS=rows,
                                                             BLOCK_C=block_c, num_warps=8)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
