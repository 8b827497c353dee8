"""Hardswish, x * relu6(x + 3) / 6, over a 1-D bf16 tensor (torch.nn.functional.hardswish).

NPUKernelBench level0/16_hardswish.py, case 27 (line 28 of its .json): self bf16[43338]. The code
is written here; only the op and the input case come from NPUKernelBench (MultiKernelBench
@460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 43338

STRATA_TASK = {
    "category": "elementwise",
    "flops": "5 * N",
    "bytes": "2 * N * 2",
    "interpret_shapes": {"N": 3001},
}


@triton.jit
def hardswish_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    relu6 = tl.minimum(tl.maximum(x + 3.0, 0.0), 6.0)
    tl.store(out_ptr + offsets, (x * relu6 / 6.0).to(tl.bfloat16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.hardswish(x)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        BLOCK_SIZE = 1024  # 43 programs at the real shape
        hardswish_kernel[(triton.cdiv(x.numel(), BLOCK_SIZE),)](x, out, x.numel(),
                                                                BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    # The benchmark draws from [-10, 10]: both flat sides and the curved middle.
    return [(torch.rand(N, device=DEVICE) * 20 - 10).to(torch.bfloat16)]


def get_init_inputs():
    return []
