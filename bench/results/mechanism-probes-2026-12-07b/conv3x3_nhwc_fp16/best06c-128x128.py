"""3x3 convolution (stride 1, pad 1) on NHWC fp16 as an implicit GEMM, 32 x 56 x 56 x 256 -> 256."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 32
HEIGHT = 56
WIDTH = 56
IN_CHANNELS = 256
OUT_CHANNELS = 256

STRATA_TASK = {
    "category": "convolution",
    "flops": "2 * BATCH * HEIGHT * WIDTH * OUT_CHANNELS * IN_CHANNELS * 9",
    "bytes": "(BATCH * HEIGHT * WIDTH * (IN_CHANNELS + OUT_CHANNELS)"
             " + 9 * IN_CHANNELS * OUT_CHANNELS) * 2",
    "precision": "fp16",
    "extra_shapes": [{"BATCH": 1, "HEIGHT": 7, "WIDTH": 5, "IN_CHANNELS": 24,
                      "OUT_CHANNELS": 40}],
    "interpret_shapes": {"BATCH": 1, "HEIGHT": 8, "WIDTH": 8, "IN_CHANNELS": 32,
                         "OUT_CHANNELS": 32},
}


@triton.jit
def conv3x3_kernel(x_ptr, w_ptr, y_ptr, batch, height, width, in_ch, out_ch,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # GEMM view: M = batch*height*width output pixels, N = out_ch, K = 9 * in_ch.
    # x is NHWC, w is (out_ch, 3, 3, in_ch), y is NHWC.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_c = tl.arange(0, BLOCK_K)
    n_pixels = batch * height * width
    ow = offs_m % width
    oh = (offs_m // width) % height
    img = offs_m // (width * height)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for r in range(3):
        for s in range(3):
            ih = oh + r - 1
            iw = ow + s - 1
            pixel_ok = (offs_m < n_pixels) & (ih >= 0) & (ih < height) \
                & (iw >= 0) & (iw < width)
            x_row = ((img * height + ih) * width + iw) * in_ch
            for c in range(0, in_ch, BLOCK_K):
                cs = c + offs_c
                a = tl.load(x_ptr + x_row[:, None] + cs[None, :],
                            mask=pixel_ok[:, None] & (cs[None, :] < in_ch), other=0.0)
                w_offs = offs_n[None, :] * (9 * in_ch) + (r * 3 + s) * in_ch + cs[:, None]
                w_mask = (offs_n[None, :] < out_ch) & (cs[:, None] < in_ch)
                b = tl.load(w_ptr + w_offs, mask=w_mask, other=0.0)
                acc += tl.dot(a, b)
    y_ptrs = y_ptr + offs_m[:, None] * out_ch + offs_n[None, :]
    y_mask = (offs_m[:, None] < n_pixels) & (offs_n[None, :] < out_ch)
    tl.store(y_ptrs, acc.to(tl.float16), mask=y_mask)


class Model(torch.nn.Module):
    def forward(self, x_nhwc, weight_ohwi):
        x = x_nhwc.permute(0, 3, 1, 2)
        w = weight_ohwi.permute(0, 3, 1, 2)
        return torch.nn.functional.conv2d(x, w, padding=1).permute(0, 2, 3, 1).contiguous()


class ModelNew(torch.nn.Module):
    def forward(self, x_nhwc, weight_ohwi):
        x = x_nhwc.contiguous()
        w = weight_ohwi.contiguous()
        batch, height, width, in_ch = x.shape
        out_ch = w.shape[0]
        y = torch.empty((batch, height, width, out_ch), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(batch * height * width, 128), triton.cdiv(out_ch, 128))
        conv3x3_kernel[grid](x, w, y, batch, height, width, in_ch, out_ch,
                             BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)
        return y


def get_inputs():
    x = torch.randn(BATCH, HEIGHT, WIDTH, IN_CHANNELS, device=DEVICE, dtype=torch.float16)
    w = torch.randn(OUT_CHANNELS, 3, 3, IN_CHANNELS, device=DEVICE, dtype=torch.float16) * 0.05
    return [x, w]


def get_init_inputs():
    return []
