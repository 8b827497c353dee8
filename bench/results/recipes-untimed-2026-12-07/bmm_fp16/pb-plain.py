"""Batched fp16 matmul (torch.bmm), 16 x 2048 x 2048 x 2048."""
import torch
import triton
import triton.language as tl


# Device-side TMA descriptors need global scratch memory, which Triton asks this for.
def _strata_tma_scratch(size, alignment, stream):
    return torch.empty(size, device="cuda" if torch.cuda.is_available() else "cpu", dtype=torch.int8)


triton.set_allocator(_strata_tma_scratch)

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


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_am, stride_ak, stride_bb,
               stride_bk, stride_bn, stride_cb, stride_cm, stride_cn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, USE_TMA: tl.constexpr, _G0, _G1, _G2):
    for _t in tl.range(tl.program_id(0), _G0 * _G1 * _G2, tl.num_programs(0)):
        pid_m = (_t % _G0)
        pid_n = ((_t // _G0) % _G1)
        batch = (_t // (_G0 * _G1))
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        a_base = a_ptr + batch * stride_ab
        b_base = b_ptr + batch * stride_bb
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        if USE_TMA:
            a_base_desc = tl.make_tensor_descriptor(a_base, shape=[M, K], strides=[stride_am, stride_ak], block_shape=[BLOCK_M, BLOCK_K])
            b_base_desc = tl.make_tensor_descriptor(b_base, shape=[K, N], strides=[stride_bk, stride_bn], block_shape=[BLOCK_K, BLOCK_N])
        for k in range(0, K, BLOCK_K):
            ks = k + offs_k
            if USE_TMA:
                a = a_base_desc.load([pid_m * BLOCK_M, k])
            else:
                a = tl.load(a_base + offs_m[:, None] * stride_am + ks[None, :] * stride_ak,
                        mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
            if USE_TMA:
                b = b_base_desc.load([k, pid_n * BLOCK_N])
            else:
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
        _g0, _g1, _g2 = triton.cdiv(M, 128), triton.cdiv(N, 128), batch
        _units = torch.cuda.get_device_properties(0).multi_processor_count if torch.cuda.is_available() else 4
        grid = (min(_g0 * _g1 * _g2, _units),)
        bmm_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), a.stride(2), b.stride(0),
                         b.stride(1), b.stride(2), c.stride(0), c.stride(1), c.stride(2),
                         BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3, USE_TMA=(a.data_ptr() % 16 == 0 and (a.stride(1)) * 2 % 16 == 0 and (a.stride(2)) == 1 and (a.stride(0)) * 2 % 16 == 0 and b.data_ptr() % 16 == 0 and (b.stride(1)) * 2 % 16 == 0 and (b.stride(2)) == 1 and (b.stride(0)) * 2 % 16 == 0), _G0=_g0, _G1=_g1, _G2=_g2)
        return c


def get_inputs():
    return [torch.randn(BATCH, M, K, device=DEVICE, dtype=torch.float16),
            torch.randn(BATCH, K, N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
