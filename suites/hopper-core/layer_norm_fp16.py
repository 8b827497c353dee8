"""LayerNorm over the hidden size (weight and bias), fp16 tokens 16384 x 4096."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 16384
HIDDEN = 4096
EPS = 1e-5

STRATA_TASK = {
    "category": "normalization",
    "flops": "8 * TOKENS * HIDDEN",
    "bytes": "(2 * TOKENS * HIDDEN + 2 * HIDDEN) * 2",
    "extra_shapes": [{"TOKENS": 5, "HIDDEN": 1000}],
    "interpret_shapes": {"TOKENS": 8, "HIDDEN": 512},
}


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, stride, n_cols, eps,
                      BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask).to(tl.float32)
    y = diff * rstd * w + b
    tl.store(out_ptr + row * stride + cols, y.to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def __init__(self, hidden: int = HIDDEN):
        super().__init__()
        self.norm = torch.nn.LayerNorm(hidden, eps=EPS).half()
        with torch.no_grad():  # non-trivial affine parameters
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.norm(x)


class ModelNew(Model):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty_like(x)
        BLOCK_SIZE = triton.next_power_of_2(cols)
        layer_norm_kernel[(rows,)](x, self.norm.weight, self.norm.bias, out, x.stride(0), cols,
                                   self.norm.eps, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
        return out


def get_inputs():
    return [torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return [HIDDEN]
