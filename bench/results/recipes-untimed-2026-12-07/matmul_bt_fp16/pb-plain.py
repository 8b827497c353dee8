"""Linear layer without bias, Y = X @ W^T (W stored N x K), LLaMA MLP up-projection in fp16."""
import torch
import triton
import triton.language as tl


# Device-side TMA descriptors need global scratch memory, which Triton asks this for.
def _strata_tma_scratch(size, alignment, stream):
    return torch.empty(size, device="cuda" if torch.cuda.is_available() else "cpu", dtype=torch.int8)


triton.set_allocator(_strata_tma_scratch)

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 8192
IN_FEATURES = 4096
OUT_FEATURES = 11008

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * TOKENS * IN_FEATURES * OUT_FEATURES",
    "bytes": "(TOKENS * IN_FEATURES + OUT_FEATURES * IN_FEATURES + TOKENS * OUT_FEATURES) * 2",
    "precision": "fp16",
    "extra_shapes": [{"TOKENS": 33, "IN_FEATURES": 96, "OUT_FEATURES": 70}],
    "interpret_shapes": {"TOKENS": 64, "IN_FEATURES": 64, "OUT_FEATURES": 128},
}


@triton.jit
def linear_kernel(x_ptr, w_ptr, y_ptr, M, N, K, stride_xm, stride_xk, stride_wn, stride_wk,
                  stride_ym, stride_yn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, USE_TMA: tl.constexpr, _G0, _G1, _G2):
    for _t in tl.range(tl.program_id(0), _G0 * _G1 * _G2, tl.num_programs(0)):
        # Grouped program order: 8 row blocks share each column block of B while it is in L2.
        group_num_m = _G0
        group_num_n = _G1
        group_pid = ((_t // _G0) % _G1) * group_num_m + (_t % _G0)
        group_width = 8 * group_num_n
        group_first_m = (group_pid // group_width) * 8
        group_size_m = tl.minimum(group_num_m - group_first_m, 8)
        pid_m = group_first_m + (group_pid % group_width) % group_size_m
        pid_n = (group_pid % group_width) // group_size_m
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        if USE_TMA:
            x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, K], strides=[stride_xm, stride_xk], block_shape=[BLOCK_M, BLOCK_K])
            w_desc = tl.make_tensor_descriptor(w_ptr, shape=[N, K], strides=[stride_wn, stride_wk], block_shape=[BLOCK_N, BLOCK_K])
        for k in range(0, K, BLOCK_K):
            ks = k + offs_k
            if USE_TMA:
                x = x_desc.load([pid_m * BLOCK_M, k])
            else:
                x = tl.load(x_ptr + offs_m[:, None] * stride_xm + ks[None, :] * stride_xk,
                        mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
            # W^T tile: element (k, n) of W^T is W[n, k]
            if USE_TMA:
                w = tl.trans(w_desc.load([pid_n * BLOCK_N, k]))
            else:
                w = tl.load(w_ptr + offs_n[None, :] * stride_wn + ks[:, None] * stride_wk,
                        mask=(offs_n[None, :] < N) & (ks[:, None] < K), other=0.0)
            acc += tl.dot(x, w)
        tl.store(y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn,
                 acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

class Model(torch.nn.Module):
    def forward(self, x, weight):
        return torch.nn.functional.linear(x, weight)


class ModelNew(torch.nn.Module):
    def forward(self, x, weight):
        M, K = x.shape
        N = weight.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        _g0, _g1, _g2 = triton.cdiv(M, 128), triton.cdiv(N, 128), 1
        _units = torch.cuda.get_device_properties(0).multi_processor_count if torch.cuda.is_available() else 4
        grid = (min(_g0 * _g1 * _g2, _units),)
        linear_kernel[grid](x, weight, y, M, N, K, x.stride(0), x.stride(1), weight.stride(0),
                            weight.stride(1), y.stride(0), y.stride(1),
                            BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3, USE_TMA=(x.data_ptr() % 16 == 0 and (x.stride(0)) * 2 % 16 == 0 and (x.stride(1)) == 1 and weight.data_ptr() % 16 == 0 and (weight.stride(0)) * 2 % 16 == 0 and (weight.stride(1)) == 1), _G0=_g0, _G1=_g1, _G2=_g2)
        return y


def get_inputs():
    return [torch.randn(TOKENS, IN_FEATURES, device=DEVICE, dtype=torch.float16),
            torch.randn(OUT_FEATURES, IN_FEATURES, device=DEVICE, dtype=torch.float16) * 0.02]


def get_init_inputs():
    return []
