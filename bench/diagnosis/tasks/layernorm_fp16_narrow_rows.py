"""fp16 LayerNorm over many short rows (1024 features), one row per program."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 262144
COLS = 1024
EPS = 1e-5

STRATA_TASK = {
    "category": "normalization",
    "flops": "8 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2 + 2 * COLS * 2",
    "precision": "fp16",
    "interpret_shapes": {"ROWS": 6, "COLS": 1024},
}


@triton.jit
def layer_norm_fwd(X, Y, W, B, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(xc * xc, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    b = tl.load(B + cols, mask=mask).to(tl.float32)
    tl.store(Y + row * stride + cols, (xc * rstd * w + b).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, weight, bias):
        return torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), weight.float(),
                                              bias.float(), EPS).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, weight, bias):
        rows, cols = x.shape
        y = torch.empty_like(x)
        layer_norm_fwd[(rows,)](x, y, weight, bias, x.stride(0), cols, EPS,
                                BLOCK_SIZE=triton.next_power_of_2(cols), num_warps=16)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16),
            (torch.rand(COLS, device=DEVICE) + 0.5).half(),
            torch.randn(COLS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
