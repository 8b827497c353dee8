"""out = alpha * x + y over fp32 vectors of an odd length (50,000,017 elements)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 50_000_017
ALPHA = 0.75

STRATA_TASK = {
    "category": "elementwise",
    "flops": "2 * N",
    "bytes": "3 * N * 4",
    "interpret_shapes": {"N": 4099},
}


@triton.jit
def axpy_kernel(x_ptr, y_ptr, out_ptr, alpha, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, alpha * x + y, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, y):
        return ALPHA * x + y


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        out = torch.empty_like(x)
        n = out.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        axpy_kernel[grid](x, y, out, ALPHA, n, BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(N, device=DEVICE), torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []
