"""Matrix-vector product y = W @ x with an fp16 (16384, 8192) weight (a decode-step
projection): each program owns a block of output rows and walks K."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 16384
K = 8192

STRATA_TASK = {
    "category": "matvec",
    "flops": "2 * N * K",
    "bytes": "N * K * 2 + K * 2 + N * 2",
    "precision": "fp16",
    "interpret_shapes": {"N": 12, "K": 4096},
}


@triton.jit
def gemv_kernel(w_ptr, x_ptr, y_ptr, N, K, stride_wn, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cols = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        w = tl.load(w_ptr + rows[:, None] * stride_wn + (k + cols)[None, :],
                    mask=rows[:, None] < N, other=0.0)
        x = tl.load(x_ptr + k + cols)
        acc += tl.sum(w.to(tl.float32) * x.to(tl.float32)[None, :], axis=1)
    tl.store(y_ptr + rows, acc.to(tl.float16), mask=rows < N)


class Model(torch.nn.Module):
    def forward(self, w, x):
        return (w.float() @ x.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, w, x):
        n, k = w.shape
        y = torch.empty(n, device=w.device, dtype=torch.float16)
        gemv_kernel[(triton.cdiv(n, 4),)](w, x, y, n, k, w.stride(0), BLOCK_N=4, BLOCK_K=2048,
                                           num_warps=4)
        return y


def get_inputs():
    return [torch.randn(N, K, device=DEVICE, dtype=torch.float16) * 0.05,
            torch.randn(K, device=DEVICE, dtype=torch.float16)]


def get_init_inputs():
    return []
