"""Good starting point with torch glue: abs-max scaling (the first step of int8 quantization)
whose per-tensor scale is computed by torch ops in ModelNew.forward (abs, max, div: the glue)
around one Triton kernel that scales. As the user's initial kernel it verifies with `glue: "initial"`; a candidate
may keep these ops but not add others."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1 << 24
STRATA_TASK = {"category": "elementwise", "extra_shapes": [{"N": 5003}],
               "interpret_shapes": {"N": 4099}}


@triton.jit
def absmax_scale_kernel(x_ptr, scale_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    scale = tl.load(scale_ptr)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * scale, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return x * (127.0 / x.abs().max())


class ModelNew(torch.nn.Module):
    def forward(self, x):
        scale = (127.0 / x.abs().max()).reshape(1)
        out = torch.empty_like(x)
        n = x.numel()
        absmax_scale_kernel[(triton.cdiv(n, 1024),)](x, scale, out, n, BLOCK=1024)
        return out


def get_inputs():
    return [torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
