"""Per-token cross-entropy over a 32000-entry vocabulary (fp32 logits): one pass over the row
with an online logsumexp, the target logit gathered once."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 8192
VOCAB = 32000

STRATA_TASK = {
    "category": "loss",
    "flops": "4 * TOKENS * VOCAB",
    "bytes": "TOKENS * VOCAB * 4 + TOKENS * 12",
    "interpret_shapes": {"TOKENS": 4, "VOCAB": 3000},
    "tolerance": 1e-4,
}


@triton.jit
def cross_entropy_fwd(logits_ptr, target_ptr, loss_ptr, n_vocab, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    offs = tl.arange(0, BLOCK)
    m = tl.full((BLOCK,), -1e30, dtype=tl.float32)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_vocab, BLOCK):
        v = tl.load(base + start + offs, mask=start + offs < n_vocab, other=float("-inf"))
        m_new = tl.maximum(m, v)
        s = s * tl.exp(m - m_new) + tl.exp(v - m_new)
        m = m_new
    row_max = tl.max(m, axis=0)
    lse = row_max + tl.log(tl.sum(s * tl.exp(m - row_max), axis=0))
    target = tl.load(target_ptr + row)
    tl.store(loss_ptr + row, lse - tl.load(base + target))


class Model(torch.nn.Module):
    def forward(self, logits, target):
        return torch.nn.functional.cross_entropy(logits, target, reduction="none")


class ModelNew(torch.nn.Module):
    def forward(self, logits, target):
        tokens, vocab = logits.shape
        loss = torch.empty(tokens, device=logits.device, dtype=torch.float32)
        cross_entropy_fwd[(tokens,)](logits, target, loss, vocab, logits.stride(0), BLOCK=4096,
                                     num_warps=8)
        return loss


def get_inputs():
    return [torch.randn(TOKENS, VOCAB, device=DEVICE) * 3,
            torch.randint(0, VOCAB, (TOKENS,), device=DEVICE)]


def get_init_inputs():
    return []
