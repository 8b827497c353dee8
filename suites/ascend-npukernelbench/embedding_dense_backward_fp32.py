"""Embedding backward: scatter-add of fp32 output gradients into a zeroed weight gradient
(aten.embedding_dense_backward, no padding index, no frequency scaling).

NPUKernelBench level1/24_embedding_dense_backward.py, case 0 (line 1 of its .json): grad_output
float32[128, 768], indices int64[128], num_weights 32000, padding_idx -1, scale_grad_by_freq
False. The code is written here; only the op and the input case come from NPUKernelBench
(MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 128
DIM = 768
NUM_WEIGHTS = 32000

STRATA_TASK = {
    "category": "indexing",
    "flops": "TOKENS * DIM",
    "bytes": "NUM_WEIGHTS * DIM * 4 + TOKENS * (DIM * 4 * 2 + 8)",
    "interpret_shapes": {"TOKENS": 37, "DIM": 100, "NUM_WEIGHTS": 20},
}


@triton.jit
def embedding_backward_kernel(grad_ptr, indices_ptr, out_ptr, dim, BLOCK_SIZE: tl.constexpr):
    # One program per token; tokens that share an index add into the same row, hence atomics.
    token = tl.program_id(0)
    weight_row = tl.load(indices_ptr + token)
    for start in range(0, dim, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < dim
        grad = tl.load(grad_ptr + token * dim + cols, mask=mask)
        tl.atomic_add(out_ptr + weight_row * dim + cols, grad, mask=mask)


class Model(torch.nn.Module):
    def __init__(self, num_weights: int = NUM_WEIGHTS):
        super().__init__()
        self.num_weights = num_weights

    def forward(self, grad_output, indices):
        return torch.ops.aten.embedding_dense_backward(grad_output, indices, self.num_weights,
                                                       -1, False)


class ModelNew(Model):
    def forward(self, grad_output, indices):
        grad_output, indices = grad_output.contiguous(), indices.contiguous()
        tokens, dim = grad_output.shape
        out = torch.zeros(self.num_weights, dim, dtype=grad_output.dtype,
                          device=grad_output.device)
        embedding_backward_kernel[(tokens,)](grad_output, indices, out, dim, BLOCK_SIZE=1024)
        return out


def get_inputs():
    grad_output = torch.randn(TOKENS, DIM, device=DEVICE)
    indices = torch.randint(0, NUM_WEIGHTS, (TOKENS,), dtype=torch.int64, device=DEVICE)
    return [grad_output, indices]


def get_init_inputs():
    return [NUM_WEIGHTS]
