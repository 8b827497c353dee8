"""Row-wise logsumexp of fp32 logits (16384 wide), as used for a softmax normaliser or a
cross-entropy denominator: one program per row, chunked over the row."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 8192
COLS = 16384

STRATA_TASK = {
    "category": "reduction",
    "flops": "4 * ROWS * COLS",
    "bytes": "ROWS * COLS * 4 + ROWS * 4",
    "interpret_shapes": {"ROWS": 4, "COLS": 700},
}


@triton.jit
def logsumexp_kernel(logits_ptr, out_ptr, stride_row, n_cols, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    base = logits_ptr + pid.to(tl.int64) * stride_row
    cols = tl.arange(0, BLOCK_N)
    m_acc = tl.full([BLOCK_N], -1e30, dtype=tl.float32)
    s_acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        v = tl.load(base + start + cols, mask=start + cols < n_cols, other=float("-inf"))
        m_new = tl.maximum(m_acc, v)
        s_acc = s_acc * tl.exp(m_acc - m_new) + tl.exp(v - m_new)
        m_acc = m_new
    m = tl.max(m_acc, axis=0)
    s_acc = s_acc * tl.exp(m_acc - m)
    tl.store(out_ptr + pid, m + tl.log(tl.sum(s_acc, axis=0)))


class Model(torch.nn.Module):
    def forward(self, logits):
        return torch.logsumexp(logits, dim=-1)


class ModelNew(torch.nn.Module):
    def forward(self, logits):
        rows, cols = logits.shape
        out = torch.empty(rows, device=logits.device, dtype=torch.float32)
        logsumexp_kernel[(rows,)](logits, out, logits.stride(0), cols, BLOCK_N=2048,
                                  num_warps=8)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE) * 4]


def get_init_inputs():
    return []
