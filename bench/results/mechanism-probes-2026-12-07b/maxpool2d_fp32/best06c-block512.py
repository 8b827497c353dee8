"""MaxPool2d(kernel 3, stride 2, padding 1) on NCHW fp32, 64 x 128 x 112 x 112 (ResNet stem)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 64
CHANNELS = 128
HEIGHT = 112
WIDTH = 112

STRATA_TASK = {
    "category": "pooling",
    "flops": "9 * BATCH * CHANNELS * ((HEIGHT - 1) // 2 + 1) * ((WIDTH - 1) // 2 + 1)",
    "bytes": "(BATCH * CHANNELS * HEIGHT * WIDTH"
             " + BATCH * CHANNELS * ((HEIGHT - 1) // 2 + 1) * ((WIDTH - 1) // 2 + 1)) * 4",
    "extra_shapes": [{"BATCH": 2, "CHANNELS": 3, "HEIGHT": 15, "WIDTH": 21}],
    "interpret_shapes": {"BATCH": 2, "CHANNELS": 4, "HEIGHT": 16, "WIDTH": 16},
}


@triton.jit
def maxpool_kernel(x_ptr, out_ptr, height, width, out_h, out_w, n_out,
                   BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_out
    ow = offs % out_w
    oh = (offs // out_w) % out_h
    plane = offs // (out_w * out_h)  # n * C + c
    result = tl.full((BLOCK_SIZE,), -float("inf"), dtype=tl.float32)
    for kh in tl.static_range(3):
        for kw in tl.static_range(3):
            ih = oh * 2 - 1 + kh
            iw = ow * 2 - 1 + kw
            valid = mask & (ih >= 0) & (ih < height) & (iw >= 0) & (iw < width)
            x = tl.load(x_ptr + plane * height * width + ih * width + iw, mask=valid,
                        other=-float("inf"))
            result = tl.maximum(result, x)
    tl.store(out_ptr + offs, result, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.max_pool2d(x, kernel_size=3, stride=2, padding=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        x = x.contiguous()
        batch, channels, height, width = x.shape
        out_h = (height + 2 - 3) // 2 + 1
        out_w = (width + 2 - 3) // 2 + 1
        out = torch.empty((batch, channels, out_h, out_w), device=x.device, dtype=x.dtype)
        n_out = out.numel()
        grid = (triton.cdiv(n_out, 512),)
        maxpool_kernel[grid](x, out, height, width, out_h, out_w, n_out, BLOCK_SIZE=512)
        return out


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH, device=DEVICE)]


def get_init_inputs():
    return []
