"""Mean cross-entropy loss over 8192 tokens and a 32000-entry vocabulary (fp32 logits)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 8192
VOCAB = 32000

STRATA_TASK = {
    "category": "loss",
    "flops": "4 * TOKENS * VOCAB",
    "bytes": "TOKENS * VOCAB * 4 + TOKENS * 8",
    "extra_shapes": [{"TOKENS": 7, "VOCAB": 1001}],
    "interpret_shapes": {"TOKENS": 8, "VOCAB": 3000},
}


@triton.jit
def cross_entropy_kernel(logits_ptr, targets_ptr, loss_ptr, n_cols, n_rows, stride_row,
                         BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = logits_ptr + row * stride_row
    m = -float("inf")
    s = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(row_ptr + cols, mask=cols < n_cols, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    target = tl.load(targets_ptr + row)
    target_logit = tl.load(row_ptr + target)
    loss = m + tl.log(s) - target_logit
    tl.atomic_add(loss_ptr, loss / n_rows)


class Model(torch.nn.Module):
    def forward(self, logits, targets):
        return torch.nn.functional.cross_entropy(logits, targets)


class ModelNew(torch.nn.Module):
    def forward(self, logits, targets):
        rows, cols = logits.shape
        loss = torch.zeros((), device=logits.device, dtype=torch.float32)
        cross_entropy_kernel[(rows,)](logits, targets, loss, cols, rows, logits.stride(0),
                                      BLOCK_SIZE=2048)
        return loss


def get_inputs():
    logits = torch.randn(TOKENS, VOCAB, device=DEVICE)
    targets = torch.randint(0, VOCAB, (TOKENS,), device=DEVICE)
    return [logits, targets]


def get_init_inputs():
    return []
