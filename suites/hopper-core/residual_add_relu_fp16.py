"""ReLU(x + residual) on fp16 feature maps, 32 x 256 x 64 x 64 (a ResNet block's tail)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 32
CHANNELS = 256
HEIGHT = 64
WIDTH = 64

STRATA_TASK = {
    "category": "elementwise",
    "flops": "2 * BATCH * CHANNELS * HEIGHT * WIDTH",
    "bytes": "3 * BATCH * CHANNELS * HEIGHT * WIDTH * 2",
    "extra_shapes": [{"BATCH": 1, "CHANNELS": 3, "HEIGHT": 17, "WIDTH": 23}],
    "interpret_shapes": {"BATCH": 2, "CHANNELS": 4, "HEIGHT": 16, "WIDTH": 16},
}


@triton.jit
def add_relu_kernel(x_ptr, res_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    r = tl.load(res_ptr + offsets, mask=mask)
    y = tl.maximum(x + r, 0.0)
    tl.store(out_ptr + offsets, y, mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, residual):
        return torch.relu(x + residual)


class ModelNew(torch.nn.Module):
    def forward(self, x, residual):
        out = torch.empty_like(x)
        n_elements = out.numel()
        grid = (triton.cdiv(n_elements, 2048),)
        add_relu_kernel[grid](x, residual, out, n_elements, BLOCK_SIZE=2048, num_warps=8)
        return out


def get_inputs():
    shape = (BATCH, CHANNELS, HEIGHT, WIDTH)
    return [torch.randn(shape, device=DEVICE, dtype=torch.float16),
            torch.randn(shape, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
