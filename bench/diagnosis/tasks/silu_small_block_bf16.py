"""SiLU over a flat bf16 tensor, 1-D grid."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 64 * 1024 * 1024

STRATA_TASK = {
    "category": "elementwise",
    "flops": "4 * N",
    "bytes": "2 * N * 2",
    "interpret_shapes": {"N": 4096},
}


@triton.jit
def silu_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = x * tl.sigmoid(x)
    tl.store(y_ptr + offsets, y.to(tl.bfloat16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.silu(x)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK_SIZE = 32
        grid = (triton.cdiv(n, BLOCK_SIZE),)
        silu_kernel[grid](x, y, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
        return y


def get_inputs():
    return [torch.randn(N, device=DEVICE, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
