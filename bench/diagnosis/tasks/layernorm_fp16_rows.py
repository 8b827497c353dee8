"""fp16 LayerNorm forward over rows of 4096 features, the whole row in registers; block size and
warps from @triton.heuristics."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 65536
COLS = 4096
EPS = 1e-5

STRATA_TASK = {
    "category": "normalization",
    "flops": "8 * ROWS * COLS",
    "bytes": "2 * ROWS * COLS * 2 + 2 * COLS * 2",
    "precision": "fp16",
    "interpret_shapes": {"ROWS": 4, "COLS": 512},
}


@triton.heuristics({"BLOCK_N": lambda args: triton.next_power_of_2(args["N"])})
@triton.jit
def layernorm_kernel(X, Y, W, B, stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(xc * xc, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    tl.store(Y + row * stride + cols, (xc * rstd * w + b).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, weight, bias):
        return torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), weight.float(),
                                              bias.float(), EPS).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, weight, bias):
        rows, cols = x.shape
        y = torch.empty_like(x)
        warps = min(max(triton.next_power_of_2(cols) // 512, 1), 16)
        layernorm_kernel[(rows,)](x, y, weight, bias, x.stride(0), cols, EPS, num_warps=warps)
        return y


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16),
            (torch.rand(COLS, device=DEVICE) + 0.5).half(),
            torch.randn(COLS, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
