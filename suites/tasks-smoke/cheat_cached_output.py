"""CHEAT: computes once with Triton, then returns the cached tensor on every later call. verify
must fail it with output_reused_across_calls (and wrong results on fresh inputs)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1 << 16
STRATA_TASK = {"category": "cheat", "interpret_shapes": {"N": 2048}}


@triton.jit
def double_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * 2.0, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return x * 2.0


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cached = None

    def forward(self, x):
        if self.cached is None:
            self.cached = torch.empty_like(x)
            double_kernel[(triton.cdiv(x.numel(), 1024),)](x, self.cached, x.numel(), BLOCK=1024)
        return self.cached


def get_inputs():
    return [torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
