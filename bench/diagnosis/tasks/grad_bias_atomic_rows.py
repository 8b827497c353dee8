"""Bias gradient db = dy.sum(0) of an fp32 (8192, 1024) upstream gradient, one program per row
adding its row into db."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 8192
N = 1024

STRATA_TASK = {
    "category": "reduction",
    "bytes": "M * N * 4 + N * 4",
    "interpret_shapes": {"M": 5, "N": 48},
    "tolerance": 1e-4,
}


@triton.jit
def bias_grad_kernel(dy_ptr, db_ptr, n_rows, n_cols, stride_row, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    dy = tl.load(dy_ptr + row * stride_row + cols, mask=mask, other=0.0)
    tl.atomic_add(db_ptr + cols, dy, mask=mask)


class Model(torch.nn.Module):
    def forward(self, dy):
        return dy.sum(dim=0)


class ModelNew(torch.nn.Module):
    def forward(self, dy):
        m, n = dy.shape
        db = torch.zeros(n, device=dy.device, dtype=torch.float32)
        bias_grad_kernel[(m,)](dy, db, m, n, dy.stride(0), BLOCK_N=triton.next_power_of_2(n),
                               num_warps=4)
        return db


def get_inputs():
    return [torch.randn(M, N, device=DEVICE)]


def get_init_inputs():
    return []
