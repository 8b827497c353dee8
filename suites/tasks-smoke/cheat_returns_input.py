"""CHEAT: the reference clamps to [-100, 100], which leaves randn inputs unchanged, so returning
the input is numerically right. verify must fail it with output_aliases_input."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1 << 16
STRATA_TASK = {"category": "cheat", "interpret_shapes": {"N": 2048}}


@triton.jit
def touch_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.clamp(x, -100.0, 100.0)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        touch_kernel[(triton.cdiv(x.numel(), 1024),)](x, x.numel(), BLOCK=1024)
        return x


def get_inputs():
    return [torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
