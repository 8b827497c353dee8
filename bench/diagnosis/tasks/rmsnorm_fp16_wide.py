"""RMSNorm of fp16 rows of 16384 features with an fp16 weight, the whole row held by one program
(block size from @triton.heuristics)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 16384
EPS = 1e-6

STRATA_TASK = {
    "category": "normalization",
    "flops": "4 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2 + COLS * 2",
    "precision": "fp16",
    "interpret_shapes": {"ROWS": 4, "COLS": 256},
}


@triton.heuristics({"BLOCK_N": lambda args: triton.next_power_of_2(args["n_cols"])})
@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, w):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS) * w.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, w):
        rows, cols = x.shape
        y = torch.empty_like(x)
        rmsnorm_kernel[(rows,)](x, w, y, x.stride(0), cols, EPS, num_warps=4)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16),
            torch.randn(COLS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
