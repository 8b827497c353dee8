"""MoE router: top-2 of 64 expert logits per token with softmax-renormalized weights (Mixtral)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 262144
EXPERTS = 64
TOP_K = 2

STRATA_TASK = {
    "category": "llm_fused",
    "flops": "TOKENS * EXPERTS * TOP_K + 4 * TOKENS * TOP_K",
    "bytes": "TOKENS * EXPERTS * 4 + TOKENS * TOP_K * (4 + 8)",
    "extra_shapes": [{"TOKENS": 37, "EXPERTS": 10}],
    "interpret_shapes": {"TOKENS": 64},
}


@triton.jit
def topk_gating_kernel(logits_ptr, weights_ptr, ids_ptr, n_experts, stride_row,
                       TOP_K: tl.constexpr, BLOCK_E: tl.constexpr):
    # one program per token: pick the k largest logits one after the other
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_E)
    logits = tl.load(logits_ptr + row * stride_row + cols, mask=cols < n_experts,
                     other=-float("inf"))
    top_max = tl.max(logits, axis=0)
    slots = tl.arange(0, TOP_K)
    top_weights = tl.zeros((TOP_K,), dtype=tl.float32)
    top_ids = tl.zeros((TOP_K,), dtype=tl.int32)
    for k in tl.static_range(TOP_K):
        best = tl.max(logits, axis=0)
        best_id = tl.min(tl.where(logits == best, cols, BLOCK_E), axis=0)
        top_weights = tl.where(slots == k, tl.exp(best - top_max), top_weights)
        top_ids = tl.where(slots == k, best_id, top_ids)
        logits = tl.where(cols == best_id, -float("inf"), logits)
    top_weights = top_weights / tl.sum(top_weights, axis=0)
    tl.store(weights_ptr + row * TOP_K + slots, top_weights)
    tl.store(ids_ptr + row * TOP_K + slots, top_ids.to(tl.int64))


class Model(torch.nn.Module):
    def __init__(self, top_k: int = TOP_K):
        super().__init__()
        self.top_k = top_k

    def forward(self, router_logits):
        # softmax then top-k then renormalize == softmax over the top-k logits
        top_logits, top_ids = torch.topk(router_logits, self.top_k, dim=-1)
        return torch.softmax(top_logits, dim=-1), top_ids


class ModelNew(Model):
    def forward(self, router_logits):
        tokens, n_experts = router_logits.shape
        weights = torch.empty((tokens, self.top_k), device=router_logits.device,
                              dtype=router_logits.dtype)
        ids = torch.empty((tokens, self.top_k), device=router_logits.device, dtype=torch.int64)
        topk_gating_kernel[(tokens,)](router_logits, weights, ids, n_experts,
                                      router_logits.stride(0), TOP_K=self.top_k,
                                      BLOCK_E=triton.next_power_of_2(n_experts))
        return weights, ids


def get_inputs():
    return [torch.randn(TOKENS, EXPERTS, device=DEVICE)]


def get_init_inputs():
    return [TOP_K]
