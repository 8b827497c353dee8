"""SiLU (x * sigmoid(x)) over bf16 activations of 16384 x 8192."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 8192

STRATA_TASK = {
    "category": "elementwise",
    "flops": "5 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2",
    "extra_shapes": [{"ROWS": 3, "COLS": 4097}],
    "interpret_shapes": {"ROWS": 8, "COLS": 1024},
}


@triton.jit
def silu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = x * tl.sigmoid(x)
    tl.store(out_ptr + offsets, y.to(tl.bfloat16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.silu(x)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n_elements = x.numel()
        grid = (triton.cdiv(n_elements, 1024),)
        silu_kernel[grid](x, out, n_elements, BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
