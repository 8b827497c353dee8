"""Per-row count of positive activations of an fp32 (32, 262144) tensor, on a flat 1-D grid
over all elements (each block lies inside one row)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 32
COLS = 262144

STRATA_TASK = {
    "category": "reduction",
    "bytes": "ROWS * COLS * 4 + ROWS * 4",
    "interpret_shapes": {"ROWS": 3, "COLS": 128},
}


@triton.jit
def count_positive_kernel(x_ptr, count_ptr, n_cols, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    hit = (x > 0).to(tl.int32)
    tl.atomic_add(count_ptr + offs // n_cols, hit, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return (x > 0).sum(dim=1).to(torch.int32)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        block = min(1024, cols)
        counts = torch.zeros(rows, device=x.device, dtype=torch.int32)
        n = x.numel()
        count_positive_kernel[(triton.cdiv(n, block),)](x, counts, cols, n, BLOCK=block,
                                                        num_warps=4)
        return counts


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
