"""fp16 LayerNorm with a 2-D launch: program (row, block) normalizes one block of a row; the
block size comes from @triton.heuristics."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 16384
COLS = 8192
EPS = 1e-5

STRATA_TASK = {
    "category": "normalization",
    "flops": "8 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2 + 2 * COLS * 2",
    "precision": "fp16",
    "interpret_shapes": {"ROWS": 3, "COLS": 1536},
}


@triton.heuristics({"BLOCK_N": lambda args: min(1024, triton.next_power_of_2(args["N"]))})
@triton.jit
def ln_fwd_blocked(X, Y, W, B, stride_x, stride_y, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_N)
    s1 = tl.zeros([BLOCK_N], dtype=tl.float32)
    s2 = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        xs = tl.load(X + row * stride_x + start + offs, mask=start + offs < N, other=0.0)
        xs = xs.to(tl.float32)
        s1 += xs
        s2 += xs * xs
    mean = tl.sum(s1, axis=0) / N
    rstd = tl.rsqrt(tl.sum(s2, axis=0) / N - mean * mean + eps)
    for start in range(0, N, BLOCK_N):
        cols = start + offs
        mask = cols < N
        x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=mask).to(tl.float32)
        b = tl.load(B + cols, mask=mask).to(tl.float32)
        tl.store(Y + row * stride_y + cols, ((x - mean) * rstd * w + b).to(tl.float16),
                 mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, weight, bias):
        return torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), weight.float(),
                                              bias.float(), EPS).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, weight, bias):
        rows, cols = x.shape
        y = torch.empty_like(x)
        grid = lambda meta: (rows,)
        ln_fwd_blocked[grid](x, y, weight, bias, x.stride(0), y.stride(0), cols, EPS,
                             num_warps=4)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16),
            (torch.rand(COLS, device=DEVICE) + 0.5).half(),
            torch.randn(COLS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
