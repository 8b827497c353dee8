"""dtype conversion of 128M fp32 values to bf16 (e.g. casting master weights for a forward)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 128 * 1024 * 1024

STRATA_TASK = {
    "category": "memory",
    "flops": "0",
    "bytes": "N * (4 + 2)",
    "extra_shapes": [{"N": 9999}],
    "interpret_shapes": {"N": 4096},
}


@triton.jit
def cast_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x.to(tl.bfloat16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return x.to(torch.bfloat16)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty(x.shape, device=x.device, dtype=torch.bfloat16)
        n_elements = x.numel()
        grid = (triton.cdiv(n_elements, 1024),)
        cast_kernel[grid](x, out, n_elements, BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
