"""Log-softmax over a 32000-entry vocabulary for 4096 fp32 rows (online max/sum, then write)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 4096
VOCAB = 32000

STRATA_TASK = {
    "category": "softmax",
    "flops": "4 * ROWS * VOCAB",
    "bytes": "2 * ROWS * VOCAB * 4",
    "extra_shapes": [{"ROWS": 3, "VOCAB": 5001}],
    "interpret_shapes": {"ROWS": 4, "VOCAB": 3000},
}


@triton.jit
def log_softmax_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    # online max and sum of exponentials in one pass
    m = tl.full((BLOCK_SIZE,), -float("inf"), dtype=tl.float32)
    s = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=-float("inf"))
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        s = tl.where(m_new == -float("inf"), 0.0, s)
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - row_max), axis=0)
    log_z = row_max + tl.log(total)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(out_ptr + row * stride_row + cols, x - log_z, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.log_softmax(x, dim=-1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty_like(x)
        log_softmax_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(ROWS, VOCAB, device=DEVICE)]


def get_init_inputs():
    return []
