"""GroupNorm with per-channel weight and bias over NCHW fp16 (torch.nn.functional.group_norm).

NPUKernelBench level1/11_group_norm.py, case 29 (line 30 of its .json): x float16[4, 256, 56, 56],
num_groups 32, weight and bias float16[256]. The code is written here; only the op and the input
case come from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 4
CHANNELS = 256
HEIGHT = 56
WIDTH = 56
GROUPS = 32
EPS = 1e-5

STRATA_TASK = {
    "category": "normalization",
    "flops": "8 * BATCH * CHANNELS * HEIGHT * WIDTH",
    "bytes": "(2 * BATCH * CHANNELS * HEIGHT * WIDTH + 2 * CHANNELS) * 2",
    "interpret_shapes": {"BATCH": 2, "CHANNELS": 64, "HEIGHT": 5, "WIDTH": 7},
}


@triton.jit
def group_norm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, channels_per_group, hw, num_groups, eps,
                      BLOCK_SIZE: tl.constexpr, BLOCK_HW: tl.constexpr):
    # One program per (sample, group); the group's channels are contiguous in NCHW.
    pid = tl.program_id(0)
    group = pid % num_groups
    group_size = channels_per_group * hw
    base = pid * group_size
    total = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    total_sq = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, group_size, BLOCK_SIZE):
        offsets = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + base + offsets, mask=offsets < group_size, other=0.0).to(tl.float32)
        total += x
        total_sq += x * x
    mean = tl.sum(total, axis=0) / group_size
    rstd = 1.0 / tl.sqrt(tl.sum(total_sq, axis=0) / group_size - mean * mean + eps)
    spatial = tl.arange(0, BLOCK_HW)
    for channel in range(0, channels_per_group):
        global_channel = group * channels_per_group + channel
        w = tl.load(w_ptr + global_channel).to(tl.float32)
        b = tl.load(b_ptr + global_channel).to(tl.float32)
        for start in range(0, hw, BLOCK_HW):
            offsets = start + spatial
            mask = offsets < hw
            at = base + channel * hw + offsets
            x = tl.load(x_ptr + at, mask=mask).to(tl.float32)
            tl.store(out_ptr + at, ((x - mean) * rstd * w + b).to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, weight, bias):
        return torch.nn.functional.group_norm(x, GROUPS, weight, bias, eps=EPS)


class ModelNew(torch.nn.Module):
    def forward(self, x, weight, bias):
        x = x.contiguous()
        batch, channels, height, width = x.shape
        hw = height * width
        out = torch.empty_like(x)
        group_norm_kernel[(batch * GROUPS,)](
            x, weight, bias, out, channels // GROUPS, hw, GROUPS, EPS, BLOCK_SIZE=4096,
            BLOCK_HW=min(4096, triton.next_power_of_2(hw)))
        return out


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH, device=DEVICE, dtype=torch.float16)
    weight = (torch.rand(CHANNELS, device=DEVICE) + 0.5).to(torch.float16)
    bias = (torch.rand(CHANNELS, device=DEVICE) - 0.5).to(torch.float16)
    return [x, weight, bias]


def get_init_inputs():
    return []
