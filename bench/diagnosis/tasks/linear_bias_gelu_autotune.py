"""fp16 linear layer with a fused bias + GELU epilogue: autotuned, grouped tile order, the
activation in a helper."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 8192
N = 8192
K = 8192

STRATA_TASK = {
    "category": "matmul",
    "flops": "2 * M * N * K",
    "bytes": "(M * K + K * N + M * N) * 2 + N * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 128, "N": 256, "K": 128},
}


@triton.jit
def _gelu(x):
    return 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8},
                      num_warps=8, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8},
                      num_warps=8, num_stages=4),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def linear_gelu_kernel(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * num_pid_n
    first_m = (pid // width) * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % width) % size_m
    pid_n = (pid % width) // size_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    out = _gelu(acc + tl.load(bias_ptr + rn).to(tl.float32)[None, :])
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], out.to(tl.float16))


class Model(torch.nn.Module):
    def forward(self, a, b, bias):
        return torch.nn.functional.gelu(a.float() @ b.float() + bias.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, a, b, bias):
        m, k = a.shape
        n = b.shape[1]
        c = torch.empty((m, n), device=a.device, dtype=torch.float16)
        grid = lambda meta: (triton.cdiv(m, meta["BLOCK_M"]) * triton.cdiv(n, meta["BLOCK_N"]),)
        linear_gelu_kernel[grid](a, b, bias, c, m, n, k, a.stride(0), b.stride(0), c.stride(0))
        return c


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16) * 0.05,
            torch.randn(K, N, device=DEVICE, dtype=torch.float16) * 0.05,
            torch.randn(N, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
