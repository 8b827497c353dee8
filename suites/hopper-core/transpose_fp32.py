"""Out-of-place 2-D transpose of an fp32 8192 x 8192 matrix (32 x 32 tiles)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROWS = 8192
COLS = 8192

STRATA_TASK = {
    "category": "memory",
    "flops": "0",
    "bytes": "2 * ROWS * COLS * 4",
    "extra_shapes": [{"ROWS": 45, "COLS": 77}],
    "interpret_shapes": {"ROWS": 128, "COLS": 96},
}


@triton.jit
def transpose_kernel(x_ptr, out_ptr, rows, cols, stride_xr, stride_xc, stride_or, stride_oc,
                     BLOCK: tl.constexpr):
    pid_r = tl.program_id(0)
    pid_c = tl.program_id(1)
    offs_r = pid_r * BLOCK + tl.arange(0, BLOCK)
    offs_c = pid_c * BLOCK + tl.arange(0, BLOCK)
    mask = (offs_r[:, None] < rows) & (offs_c[None, :] < cols)
    tile = tl.load(x_ptr + offs_r[:, None] * stride_xr + offs_c[None, :] * stride_xc, mask=mask)
    # out[c, r] = x[r, c]
    tl.store(out_ptr + offs_c[None, :] * stride_or + offs_r[:, None] * stride_oc, tile, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return x.t().contiguous()


class ModelNew(torch.nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty((cols, rows), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(rows, 32), triton.cdiv(cols, 32))
        transpose_kernel[grid](x, out, rows, cols, x.stride(0), x.stride(1), out.stride(0),
                               out.stride(1), BLOCK=32)
        return out


def get_inputs():
    return [torch.randn(ROWS, COLS, device=DEVICE)]


def get_init_inputs():
    return []
