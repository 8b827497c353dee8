"""Mish activation, x * tanh(softplus(x)), over an fp32 tensor (torch.nn.functional.mish).

NPUKernelBench level0/5_mish.py, case 16 (line 17 of its .json): x float32[15, 20, 20, 21, 1, 9, 7].
The code is written here; only the op and the input case come from NPUKernelBench
(MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
D0 = 15
D1 = 20
D2 = 20
D3 = 21
D5 = 9
D6 = 7

STRATA_TASK = {
    "category": "elementwise",
    "flops": "10 * D0 * D1 * D2 * D3 * D5 * D6",
    "bytes": "2 * D0 * D1 * D2 * D3 * D5 * D6 * 4",
    "interpret_shapes": {"D0": 3, "D1": 5, "D2": 4, "D3": 7},
}


@triton.jit
def mish_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    # tanh(log(1 + e)) = (e^2 + 2e) / (e^2 + 2e + 2) with e = exp(x): one exp, no tanh/log.
    # Clamping x keeps e^2 finite; past 20 the ratio is 1 in fp32 anyway.
    e = tl.exp(tl.minimum(x, 20.0))
    n = e * (e + 2.0)
    tl.store(out_ptr + offsets, x * (n / (n + 2.0)), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.mish(x)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n_elements = x.numel()
        BLOCK_SIZE = 4096  # 1929 programs at the real shape
        mish_kernel[(triton.cdiv(n_elements, BLOCK_SIZE),)](x, out, n_elements,
                                                            BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    return [torch.randn(D0, D1, D2, D3, 1, D5, D6, device=DEVICE)]


def get_init_inputs():
    return []
