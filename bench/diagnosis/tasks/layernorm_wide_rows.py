"""LayerNorm over wide fp32 rows (16384 features) with weight and bias, one program per row
looping over the row in chunks."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 8192
COLS = 16384
EPS = 1e-5

STRATA_TASK = {
    "category": "normalization",
    "flops": "8 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 4 + 2 * COLS * 4",
    "interpret_shapes": {"ROWS": 4, "COLS": 320},
}


@triton.jit
def layernorm_fwd_kernel(X, Y, W, B, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    cols = tl.arange(0, BLOCK_SIZE)

    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        a = tl.load(X + off + cols, mask=off + cols < N, other=0.0)
        acc += a
    mean = tl.sum(acc, axis=0) / N

    acc_var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        a = tl.load(X + off + cols, mask=off + cols < N, other=0.0)
        d = tl.where(off + cols < N, a - mean, 0.0)
        acc_var += d * d
    rstd = 1 / tl.sqrt(tl.sum(acc_var, axis=0) / N + eps)

    for off in range(0, N, BLOCK_SIZE):
        mask = off + cols < N
        w = tl.load(W + off + cols, mask=mask)
        b = tl.load(B + off + cols, mask=mask)
        a = tl.load(X + off + cols, mask=mask, other=0.0)
        tl.store(Y + off + cols, (a - mean) * rstd * w + b, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, weight, bias):
        return torch.nn.functional.layer_norm(x, (x.shape[-1],), weight, bias, EPS)


class ModelNew(torch.nn.Module):
    def forward(self, x, weight, bias):
        rows, cols = x.shape
        y = torch.empty_like(x)
        block = min(2048, triton.next_power_of_2(cols))
        layernorm_fwd_kernel[(rows,)](x, y, weight, bias, x.stride(0), cols, EPS,
                                      BLOCK_SIZE=block, num_warps=8)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE), torch.rand(COLS, device=DEVICE) + 0.5,
            torch.randn(COLS, device=DEVICE)]


def get_init_inputs():
    return []
