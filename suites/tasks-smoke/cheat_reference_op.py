"""CHEAT: launches a Triton kernel for show but computes the softmax with the reference's own
torch op. verify must fail it with torch_compute_in_candidate (aten._softmax)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 256
COLS = 512
STRATA_TASK = {"category": "cheat", "interpret_shapes": {"ROWS": 16, "COLS": 64}}


@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(dst_ptr + offsets, tl.load(src_ptr + offsets, mask=mask), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        staged = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 1024),)](x, staged, x.numel(), BLOCK=1024)
        return torch.softmax(staged, dim=1)


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
