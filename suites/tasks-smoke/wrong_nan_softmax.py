"""WRONG: softmax without subtracting the row maximum. On logits of magnitude ~100, exp
overflows to inf and inf/inf gives NaN. verify must fail it with non_finite_output."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 256
COLS = 512
STRATA_TASK = {"category": "wrong", "interpret_shapes": {"ROWS": 16, "COLS": 64}}


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    numerator = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, numerator / tl.sum(numerator, axis=0), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        rows, cols = x.shape
        softmax_kernel[(rows,)](out, x, x.stride(0), cols, BLOCK=triton.next_power_of_2(cols))
        return out


def get_inputs():
    return [100.0 * torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
