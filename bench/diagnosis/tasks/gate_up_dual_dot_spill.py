"""Fused SwiGLU MLP input projection: silu(x @ Wg) * (x @ Wu) for 4096 tokens, 4096 -> 4096 in
fp16, both products accumulated by one program per 128x256 output tile."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
M = 4096
N = 4096
K = 4096

STRATA_TASK = {
    "category": "matmul",
    "flops": "4 * M * N * K",
    "bytes": "(M * K + 2 * K * N + M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 128, "N": 256, "K": 64},
    "tolerance": 2e-2,
}


@triton.jit
def gate_up_kernel(x_ptr, wg_ptr, wu_ptr, y_ptr, M, N, K, BLOCK_M: tl.constexpr,
                   BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    gate = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    up = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + rm[:, None] * K + (k + rk)[None, :])
        wg = tl.load(wg_ptr + (k + rk)[:, None] * N + rn[None, :])
        wu = tl.load(wu_ptr + (k + rk)[:, None] * N + rn[None, :])
        gate = tl.dot(x, wg, gate)
        up = tl.dot(x, wu, up)
    y = gate * tl.sigmoid(gate) * up
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y.to(tl.float16))


class Model(torch.nn.Module):
    def forward(self, x, wg, wu):
        g = x.float() @ wg.float()
        return (torch.nn.functional.silu(g) * (x.float() @ wu.float())).half()


class ModelNew(torch.nn.Module):
    def forward(self, x, wg, wu):
        m, k = x.shape
        n = wg.shape[1]
        y = torch.empty((m, n), device=x.device, dtype=torch.float16)
        bm, bn, bk = 128, 256, 64
        gate_up_kernel[(m // bm, n // bn)](x, wg, wu, y, m, n, k, BLOCK_M=bm, BLOCK_N=bn,
                                          BLOCK_K=bk, num_warps=4, num_stages=2)
        return y


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16) * 0.1,
            torch.randn(K, N, device=DEVICE, dtype=torch.float16) * 0.05,
            torch.randn(K, N, device=DEVICE, dtype=torch.float16) * 0.05]


def get_init_inputs():
    return []
