"""GroupNorm with weight and bias followed by swish, x * sigmoid(swish_scale * x), returning the
output and the per-group mean and rstd (torch_npu.npu_group_norm_swish), fp16.

NPUKernelBench level2/2_group_norm_swish.py, case 2 (line 3 of its .json): input float16[4, 256, 512],
num_groups 16, weight and bias float16[256], eps 1e-05, swish_scale 1.0. The code is written here;
only the op and the input case come from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 4
CHANNELS = 256
LENGTH = 512
GROUPS = 16
EPS = 1e-5
SWISH_SCALE = 1.0

STRATA_TASK = {
    "category": "normalization",
    "flops": "12 * BATCH * CHANNELS * LENGTH",
    "bytes": "(2 * BATCH * CHANNELS * LENGTH + 2 * CHANNELS + 2 * BATCH * GROUPS) * 2",
    "interpret_shapes": {"BATCH": 2, "CHANNELS": 32, "LENGTH": 37},
}


@triton.jit
def group_norm_swish_kernel(x_ptr, w_ptr, b_ptr, out_ptr, mean_ptr, rstd_ptr,
                            channels_per_group, length, num_groups, eps, swish_scale,
                            BLOCK_SIZE: tl.constexpr, BLOCK_LENGTH: tl.constexpr):
    # One program per (sample, group); the group's channels are contiguous.
    pid = tl.program_id(0)
    group = pid % num_groups
    group_size = channels_per_group * length
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
    tl.store(mean_ptr + pid, mean.to(tl.float16))
    tl.store(rstd_ptr + pid, rstd.to(tl.float16))
    positions = tl.arange(0, BLOCK_LENGTH)
    for channel in range(0, channels_per_group):
        global_channel = group * channels_per_group + channel
        w = tl.load(w_ptr + global_channel).to(tl.float32)
        b = tl.load(b_ptr + global_channel).to(tl.float32)
        for start in range(0, length, BLOCK_LENGTH):
            offsets = start + positions
            mask = offsets < length
            at = base + channel * length + offsets
            x = tl.load(x_ptr + at, mask=mask).to(tl.float32)
            y = (x - mean) * rstd * w + b
            y = y / (1.0 + tl.exp(-swish_scale * y))
            tl.store(out_ptr + at, y.to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, weight, bias):
        grouped = x.reshape(x.shape[0], GROUPS, -1)
        var, mean = torch.var_mean(grouped, dim=-1, unbiased=False)
        normalized = torch.nn.functional.group_norm(x, GROUPS, weight, bias, eps=EPS)
        out = normalized * torch.sigmoid(SWISH_SCALE * normalized)
        return out, mean, torch.rsqrt(var + EPS)


class ModelNew(torch.nn.Module):
    def forward(self, x, weight, bias):
        x = x.contiguous()
        batch, channels = x.shape[0], x.shape[1]
        length = x.numel() // (batch * channels)
        out = torch.empty_like(x)
        mean = torch.empty(batch, GROUPS, dtype=x.dtype, device=x.device)
        rstd = torch.empty(batch, GROUPS, dtype=x.dtype, device=x.device)
        group_norm_swish_kernel[(batch * GROUPS,)](
            x, weight, bias, out, mean, rstd, channels // GROUPS, length, GROUPS, EPS,
            SWISH_SCALE, BLOCK_SIZE=4096, BLOCK_LENGTH=min(4096, triton.next_power_of_2(length)))
        return out, mean, rstd


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, LENGTH, device=DEVICE, dtype=torch.float16)
    weight = (torch.rand(CHANNELS, device=DEVICE) + 0.5).to(torch.float16)
    bias = (torch.rand(CHANNELS, device=DEVICE) - 0.5).to(torch.float16)
    return [x, weight, bias]


def get_init_inputs():
    return []
