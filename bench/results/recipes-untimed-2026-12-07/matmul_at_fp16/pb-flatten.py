"""C = A^T @ B with A stored K x M (a transposed operand), fp16 at 4096^3."""
import torch
import triton
import triton.language as tl


# Device-side TMA descriptors need global scratch memory, which Triton asks this for.
def _strata_tma_scratch(size, alignment, stream):
    return torch.empty(size, device="cuda" if torch.cuda.is_available() else "cpu", dtype=torch.int8)


triton.set_allocator(_strata_tma_scratch)

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 4096
N = 4096
K = 4096

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * M * N * K",
    "bytes": "(M * K + K * N + M * N) * 2",
    "precision": "fp16",
    "extra_shapes": [{"M": 48, "N": 100, "K": 75}],
    "interpret_shapes": {"M": 64, "N": 64, "K": 128},
}


@triton.jit
def matmul_at_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_ak, stride_am, stride_bk, stride_bn,
                     stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, USE_TMA: tl.constexpr, _G0, _G1, _G2):
    for _t in tl.range(tl.program_id(0), _G0 * _G1 * _G2, tl.num_programs(0), flatten=True):
        pid_m = (_t % _G0)
        pid_n = ((_t // _G0) % _G1)
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        if USE_TMA:
            a_desc = tl.make_tensor_descriptor(a_ptr, shape=[K, M], strides=[stride_ak, stride_am], block_shape=[BLOCK_K, BLOCK_M])
            b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[stride_bk, stride_bn], block_shape=[BLOCK_K, BLOCK_N])
        for k in range(0, K, BLOCK_K):
            ks = k + offs_k
            # A is K x M in memory: load the (BLOCK_K, BLOCK_M) tile and transpose it
            if USE_TMA:
                a_t = a_desc.load([k, pid_m * BLOCK_M])
            else:
                a_t = tl.load(a_ptr + ks[:, None] * stride_ak + offs_m[None, :] * stride_am,
                          mask=(ks[:, None] < K) & (offs_m[None, :] < M), other=0.0)
            if USE_TMA:
                b = b_desc.load([k, pid_n * BLOCK_N])
            else:
                b = tl.load(b_ptr + ks[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                        mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
            acc += tl.dot(tl.trans(a_t), b)
        tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn,
                 acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.matmul(a.T, b)


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        K, M = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=torch.float16)
        _g0, _g1, _g2 = triton.cdiv(M, 128), triton.cdiv(N, 256), 1
        _units = torch.cuda.get_device_properties(0).multi_processor_count if torch.cuda.is_available() else 4
        grid = (min(_g0 * _g1 * _g2, _units),)
        matmul_at_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                               b.stride(1), c.stride(0), c.stride(1),
                               BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, num_warps=8, num_stages=3, USE_TMA=(a.data_ptr() % 16 == 0 and (a.stride(0)) * 2 % 16 == 0 and (a.stride(1)) == 1 and b.data_ptr() % 16 == 0 and (b.stride(0)) * 2 % 16 == 0 and (b.stride(1)) == 1), _G0=_g0, _G1=_g1, _G2=_g2)
        return c


def get_inputs():
    return [torch.randn(K, M, device=DEVICE, dtype=torch.float16),
            torch.randn(K, N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
