"""WRONG: should sum each row; sums each column instead (square input, so the shape matches).
verify must fail it with wrong_result."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SIZE = 512
STRATA_TASK = {"category": "wrong", "interpret_shapes": {"SIZE": 64}}


@triton.jit
def sum_kernel(x_ptr, out_ptr, stride_row, stride_col, n, BLOCK: tl.constexpr):
    index = tl.program_id(0)
    others = tl.arange(0, BLOCK)
    mask = others < n
    # Bug: walks down column `index` instead of along row `index`.
    values = tl.load(x_ptr + others * stride_row + index * stride_col, mask=mask, other=0.0)
    tl.store(out_ptr + index, tl.sum(values, axis=0))


class Model(torch.nn.Module):
    def forward(self, x):
        return x.sum(dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty(rows, device=x.device, dtype=x.dtype)
        sum_kernel[(rows,)](x, out, x.stride(0), x.stride(1), cols,
                            BLOCK=triton.next_power_of_2(cols))
        return out


def get_inputs():
    return [torch.randn(SIZE, SIZE, device=DEVICE)]


def get_init_inputs():
    return []
