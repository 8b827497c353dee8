"""Max over dim 1 of a 3-D fp32 tensor (64 x 4096 x 512): a strided, non-last-axis reduction."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 64
REDUCE = 4096
INNER = 512

STRATA_TASK = {
    "category": "reduction",
    "flops": "BATCH * REDUCE * INNER",
    "bytes": "(BATCH * REDUCE * INNER + BATCH * INNER) * 4",
    "extra_shapes": [{"BATCH": 3, "REDUCE": 37, "INNER": 100}],
    "interpret_shapes": {"BATCH": 2, "REDUCE": 64, "INNER": 128},
}


@triton.jit
def max_dim1_kernel(x_ptr, out_ptr, n_reduce, n_inner, stride_b, stride_r, stride_i,
                    BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    batch = tl.program_id(0)
    pid_i = tl.program_id(1)
    inner = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    inner_mask = inner < n_inner
    result = tl.full((BLOCK_I,), -float("inf"), dtype=tl.float32)
    for start in range(0, n_reduce, BLOCK_R):
        r = start + tl.arange(0, BLOCK_R)
        mask = (r[:, None] < n_reduce) & inner_mask[None, :]
        ptrs = x_ptr + batch * stride_b + r[:, None] * stride_r + inner[None, :] * stride_i
        x = tl.load(ptrs, mask=mask, other=-float("inf"))
        result = tl.maximum(result, tl.max(x, axis=0))
    tl.store(out_ptr + batch * n_inner + inner, result, mask=inner_mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.amax(x, dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        batch, n_reduce, n_inner = x.shape
        out = torch.empty((batch, n_inner), device=x.device, dtype=x.dtype)
        grid = (batch, triton.cdiv(n_inner, 128))
        max_dim1_kernel[grid](x, out, n_reduce, n_inner, x.stride(0), x.stride(1), x.stride(2),
                              BLOCK_R=32, BLOCK_I=128)
        return out


def get_inputs():
    return [torch.randn(BATCH, REDUCE, INNER, device=DEVICE)]


def get_init_inputs():
    return []
