"""SwiGLU gate: silu(x[:, :I]) * x[:, I:] on a fused gate/up projection, bf16 8192 x 2*14336."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 8192
INTERMEDIATE = 14336

STRATA_TASK = {
    "category": "llm_fused",
    "flops": "6 * TOKENS * INTERMEDIATE",
    "bytes": "3 * TOKENS * INTERMEDIATE * 2",
    "extra_shapes": [{"TOKENS": 5, "INTERMEDIATE": 1000}],
    "interpret_shapes": {"TOKENS": 8, "INTERMEDIATE": 512},
}


@triton.jit
def swiglu_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    block = tl.program_id(1)
    cols = block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    gate = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    up = tl.load(x_ptr + row * stride_x + n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    y = gate * tl.sigmoid(gate) * up
    tl.store(out_ptr + row * stride_out + cols, y.to(tl.bfloat16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        gate, up = x.chunk(2, dim=-1)
        return torch.nn.functional.silu(gate) * up


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, width = x.shape
        n_cols = width // 2
        out = torch.empty((rows, n_cols), device=x.device, dtype=x.dtype)
        grid = (rows, triton.cdiv(n_cols, 1024))
        swiglu_kernel[grid](x, out, n_cols, x.stride(0), out.stride(0), BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(TOKENS, 2 * INTERMEDIATE, device=DEVICE, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
