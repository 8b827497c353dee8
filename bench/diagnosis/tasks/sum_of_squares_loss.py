"""Sum-of-squares loss (0.5 * ||x||^2) over 16M fp32 values into a single fp32 scalar, one block
of elements per program accumulated with atomics."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1 << 24

STRATA_TASK = {
    "category": "reduction",
    "flops": "2 * N",
    "bytes": "N * 4 + 4",
    "interpret_shapes": {"N": 3000},
    "tolerance": 1e-4,
}


@triton.jit
def sum_sq_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(out_ptr + tl.zeros_like(offs), 0.5 * x * x, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return 0.5 * (x.double() * x.double()).sum().float().reshape(1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        n = x.numel()
        out = torch.zeros(1, device=x.device, dtype=torch.float32)
        sum_sq_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024, num_warps=4)
        return out


def get_inputs():
    return [torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
