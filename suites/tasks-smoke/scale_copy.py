"""Good task: a memory-bound copy-ish op, y = alpha * x over a large fp32 tensor (~0.6 ms on an
H200: 2.7 GB moved). Model takes alpha from its init inputs, as KernelBench tasks do."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 320 * (1 << 20)

STRATA_TASK = {
    "category": "memory",
    "flops": "N",
    "bytes": "2 * N * 4",
    "extra_shapes": [{"N": 1 << 20}],
    "interpret_shapes": {"N": 8192},
}


@triton.jit
def scale_kernel(x_ptr, out_ptr, alpha, n_elements, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * alpha, mask=mask)


class Model(torch.nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return x * self.alpha


class ModelNew(torch.nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        scale_kernel[(triton.cdiv(n, 4096),)](x, out, self.alpha, n, BLOCK=4096, num_warps=8)
        return out


def get_inputs():
    return [torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return [2.5]
