"""Per-channel affine (frozen batch norm) y = x * scale[c] + shift[c] on an fp16 NCHW
activation, flattened to one index space."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 32
CHANNELS = 96
HEIGHT = 112
WIDTH = 112

STRATA_TASK = {
    "category": "elementwise",
    "flops": "2 * BATCH * CHANNELS * HEIGHT * WIDTH",
    "bytes": "2 * BATCH * CHANNELS * HEIGHT * WIDTH * 2",
    "precision": "fp16",
    "interpret_shapes": {"BATCH": 2, "CHANNELS": 3, "HEIGHT": 10, "WIDTH": 10},
}


@triton.jit
def channel_affine_kernel(x_ptr, scale_ptr, shift_ptr, y_ptr, n, channels, hw,
                          BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    c = (offs // hw) % channels
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    scale = tl.load(scale_ptr + c, mask=mask)
    shift = tl.load(shift_ptr + c, mask=mask)
    tl.store(y_ptr + offs, (x * scale + shift).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, scale, shift):
        return (x.float() * scale[None, :, None, None] + shift[None, :, None, None]).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, scale, shift):
        n = x.numel()
        y = torch.empty_like(x)
        channel_affine_kernel[(triton.cdiv(n, 2048),)](x, scale, shift, y, n, x.shape[1],
                                                       x.shape[2] * x.shape[3], BLOCK=2048,
                                                       num_warps=8)
        return y


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH, device=DEVICE, dtype=torch.float16),
            torch.rand(CHANNELS, device=DEVICE) + 0.5, torch.randn(CHANNELS, device=DEVICE)]


def get_init_inputs():
    return []
