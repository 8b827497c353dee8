"""Batched fp16 matmul (torch.bmm), 16 x 2048 x 2048 x 2048."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 16
M = 2048
N = 2048
K = 2048

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * BATCH * M * N * K",
    "bytes": "BATCH * (M * K + K * N + M * N) * 2",
    "precision": "fp16",
    "extra_shapes": [{"BATCH": 3, "M": 70, "N": 33, "K": 50}],
    "interpret_shapes": {"BATCH": 2, "M": 64, "N": 64, "K": 64},
}


import os  # the interpreter check below

# Configs for Hopper, pruned to <= 227 KiB of shared memory and <= 128 accumulator
# registers per thread; the first is the expected best.
_BMM_KERNEL_CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK_M": 256, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 64}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128}, num_warps=8, num_stages=3),
]
if os.environ.get("TRITON_INTERPRET") == "1":  # the CPU interpreter cannot time configs
    _BMM_KERNEL_CONFIGS = _BMM_KERNEL_CONFIGS[:1]


@triton.autotune(configs=_BMM_KERNEL_CONFIGS, key=["M", "N", "K", "stride_ab", "stride_am", "stride_bb", "stride_bk", "stride_cb", "stride_cm"])
@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_am, stride_ak, stride_bb,
               stride_bk, stride_bn, stride_cb, stride_cm, stride_cn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_base = a_ptr + batch * stride_ab
    b_base = b_ptr + batch * stride_bb
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        a = tl.load(a_base + offs_m[:, None] * stride_am + ks[None, :] * stride_ak,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_base + ks[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    c = c_ptr + batch * stride_cb + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.bmm(a, b)


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        batch, M, K = a.shape
        N = b.shape[2]
        c = torch.empty((batch, M, N), device=a.device, dtype=a.dtype)
        grid = (triton.cdiv(M, 128), triton.cdiv(N, 256), batch)
        bmm_kernel[lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]), batch)](a, b, c, M, N, K, a.stride(0), a.stride(1), a.stride(2), b.stride(0),
                         b.stride(1), b.stride(2), c.stride(0), c.stride(1), c.stride(2))
        return c


def get_inputs():
    return [torch.randn(BATCH, M, K, device=DEVICE, dtype=torch.float16),
            torch.randn(BATCH, K, N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []

