"""GroupNorm (32 groups, affine) over fp32 feature maps 32 x 256 x 64 x 64."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 32
CHANNELS = 256
HEIGHT = 64
WIDTH = 64
GROUPS = 32
EPS = 1e-5

STRATA_TASK = {
    "category": "normalization",
    "flops": "8 * BATCH * CHANNELS * HEIGHT * WIDTH",
    "bytes": "(2 * BATCH * CHANNELS * HEIGHT * WIDTH + 2 * CHANNELS) * 4",
    "extra_shapes": [{"BATCH": 2, "CHANNELS": 64, "HEIGHT": 7, "WIDTH": 9}],
    "interpret_shapes": {"BATCH": 2, "CHANNELS": 64, "HEIGHT": 8, "WIDTH": 8},
}


@triton.jit
def group_norm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, group_size, hw, channels_per_group,
                      num_groups, eps, BLOCK_SIZE: tl.constexpr):
    # one program per (sample, group); a group is contiguous in NCHW
    pid = tl.program_id(0)
    group = pid % num_groups
    base = pid * group_size
    sum_acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    sq_acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, group_size, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + base + offs, mask=offs < group_size, other=0.0)
        sum_acc += x
        sq_acc += x * x
    mean = tl.sum(sum_acc, axis=0) / group_size
    var = tl.sum(sq_acc, axis=0) / group_size - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    for start in range(0, group_size, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < group_size
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        channel = group * channels_per_group + offs // hw
        w = tl.load(w_ptr + channel, mask=mask)
        b = tl.load(b_ptr + channel, mask=mask)
        tl.store(out_ptr + base + offs, (x - mean) * rstd * w + b, mask=mask)


class Model(torch.nn.Module):
    def __init__(self, groups: int = GROUPS, channels: int = CHANNELS):
        super().__init__()
        self.norm = torch.nn.GroupNorm(groups, channels, eps=EPS)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.norm(x)


class ModelNew(Model):
    def forward(self, x):
        x = x.contiguous()
        batch, channels, height, width = x.shape
        groups = self.norm.num_groups
        out = torch.empty_like(x)
        group_size = (channels // groups) * height * width
        group_norm_kernel[(batch * groups,)](
            x, self.norm.weight, self.norm.bias, out, group_size, height * width,
            channels // groups, groups, self.norm.eps, BLOCK_SIZE=1024)
        return out


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH, device=DEVICE)]


def get_init_inputs():
    return [GROUPS, CHANNELS]
