"""Ascend check task: the forward aborts the process (SIGABRT), as a crashing NPU runtime would."""
import torch
import triton
import triton.language as tl

N = 1000
STRATA_TASK = {"category": "elementwise", "extra_shapes": [{"N": 77}]}


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, y):
        return x + y


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        import os
        os.abort()
        out = torch.empty_like(x)
        add_kernel[(triton.cdiv(x.numel(), 256),)](x, y, out, x.numel(), BLOCK=256)
        return out


def get_inputs():
    return [torch.randn(N, dtype=torch.float16), torch.randn(N, dtype=torch.float16)]


def get_init_inputs():
    return []
