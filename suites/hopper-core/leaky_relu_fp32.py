"""Leaky ReLU (slope 0.01) over 64M fp32 elements, the KernelBench level-1 style."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 4096
DIM = 16384
NEGATIVE_SLOPE = 0.01

STRATA_TASK = {
    "category": "elementwise",
    "flops": "2 * BATCH * DIM",
    "bytes": "2 * BATCH * DIM * 4",
    "extra_shapes": [{"BATCH": 5, "DIM": 777}],
    "interpret_shapes": {"BATCH": 4, "DIM": 2048},
}


@triton.jit
def leaky_relu_kernel(x_ptr, out_ptr, n_elements, negative_slope, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.where(x > 0, x, x * negative_slope)
    tl.store(out_ptr + offsets, y, mask=mask)


class Model(torch.nn.Module):
    def __init__(self, negative_slope: float = NEGATIVE_SLOPE):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        return torch.nn.functional.leaky_relu(x, negative_slope=self.negative_slope)


class ModelNew(torch.nn.Module):
    def __init__(self, negative_slope: float = NEGATIVE_SLOPE):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        out = torch.empty_like(x)
        n_elements = x.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
        leaky_relu_kernel[grid](x, out, n_elements, self.negative_slope, BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(BATCH, DIM, device=DEVICE)]


def get_init_inputs():
    return [NEGATIVE_SLOPE]
