"""Layout change NCHW -> NHWC (permute + contiguous) of fp16 feature maps 64 x 256 x 56 x 56."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 64
CHANNELS = 256
HEIGHT = 56
WIDTH = 56

STRATA_TASK = {
    "category": "memory",
    "flops": "0",
    "bytes": "2 * BATCH * CHANNELS * HEIGHT * WIDTH * 2",
    "extra_shapes": [{"BATCH": 2, "CHANNELS": 3, "HEIGHT": 5, "WIDTH": 7}],
    "interpret_shapes": {"BATCH": 2, "CHANNELS": 16, "HEIGHT": 8, "WIDTH": 8},
}


@triton.jit
def nchw_to_nhwc_kernel(x_ptr, out_ptr, n_elements, channels, hw, BLOCK_SIZE: tl.constexpr):
    # walk the output in order; gather each element from its NCHW position
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    c = offs % channels
    pixel = (offs // channels) % hw
    n = offs // (channels * hw)
    src = (n * channels + c) * hw + pixel
    vals = tl.load(x_ptr + src, mask=mask)
    tl.store(out_ptr + offs, vals, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return x.permute(0, 2, 3, 1).contiguous()


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        batch, channels, height, width = x.shape
        out = torch.empty((batch, height, width, channels), device=x.device, dtype=x.dtype)
        n_elements = out.numel()
        grid = (triton.cdiv(n_elements, 1024),)
        nchw_to_nhwc_kernel[grid](x, out, n_elements, channels, height * width, BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
