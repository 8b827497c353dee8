"""HANG: the kernel spins on a condition that stays true (x == x for finite x), storing as it
goes so the loop cannot be removed. The agent must kill it at the timeout and keep serving."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1024
STRATA_TASK = {"category": "hang"}


@triton.jit
def spin_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    total = tl.sum(x, axis=0)
    while total == total:
        tl.store(out_ptr + offsets, x)
        total = tl.sum(tl.load(out_ptr + offsets), axis=0)


class Model(torch.nn.Module):
    def forward(self, x):
        return x.clone()


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        spin_kernel[(1,)](x, out, BLOCK=1024)
        return out


def get_inputs():
    return [torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
