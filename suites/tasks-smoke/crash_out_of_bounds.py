"""CRASH: a planted out-of-bounds store, 2^40 elements past the output. On a GPU it is an
illegal address; under the interpreter a segfault. The agent must report it as this candidate's
failure and keep serving."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1 << 16
STRATA_TASK = {"category": "crash", "interpret_shapes": {"N": 1024}}


@triton.jit
def bad_store_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    far = offsets.to(tl.int64) + (1 << 40)
    tl.store(out_ptr + far, tl.load(x_ptr + offsets, mask=mask), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return x.clone()


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        bad_store_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out


def get_inputs():
    return [torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
