"""Mean squared error between two fp32 tensors of 16M values with a persistent grid: each
program strides over blocks and adds each block's partial sum into the scalar result."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1 << 24

STRATA_TASK = {
    "category": "reduction",
    "flops": "3 * N",
    "bytes": "2 * N * 4 + 4",
    "interpret_shapes": {"N": 20000},
    "tolerance": 1e-4,
}


@triton.jit
def mse_kernel(pred_ptr, target_ptr, out_ptr, n, inv_n, NUM_PROGRAMS: tl.constexpr,
               BLOCK: tl.constexpr):
    for block in range(tl.program_id(0), tl.cdiv(n, BLOCK), NUM_PROGRAMS):
        offs = block * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        d = tl.load(pred_ptr + offs, mask=mask, other=0.0) - tl.load(target_ptr + offs,
                                                                     mask=mask, other=0.0)
        tl.atomic_add(out_ptr, tl.sum(d * d, axis=0) * inv_n)


class Model(torch.nn.Module):
    def forward(self, pred, target):
        return torch.nn.functional.mse_loss(pred.double(), target.double()).float().reshape(1)


class ModelNew(torch.nn.Module):
    def forward(self, pred, target):
        n = pred.numel()
        out = torch.zeros(1, device=pred.device, dtype=torch.float32)
        sms = torch.cuda.get_device_properties(0).multi_processor_count \
            if torch.cuda.is_available() else 132
        programs = min(4 * sms, triton.cdiv(n, 4096))
        mse_kernel[(programs,)](pred, target, out, n, 1.0 / n, NUM_PROGRAMS=programs,
                                BLOCK=4096, num_warps=8)
        return out


def get_inputs():
    return [torch.randn(N, device=DEVICE), torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
