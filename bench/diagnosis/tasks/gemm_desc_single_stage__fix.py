"""fp16 GEMM (M = N = K = 8192) on device-side tensor descriptors with a helper that walks K,
one program per 128x128 output tile."""
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
    "bytes": "(M * K + K * N + M * N) * 2",
    "precision": "fp16",
    "interpret_shapes": {"M": 128, "N": 128, "K": 128},
}


@triton.jit
def _tile_product(a_desc, b_desc, off_m, off_n, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, STAGES: tl.constexpr):
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, K, BLOCK_K, num_stages=STAGES):
        a = a_desc.load([off_m, k])
        b = b_desc.load([k, off_n])
        acc = tl.dot(a, b, acc)
    return acc


@triton.jit
def matmul_desc_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       BLOCK_K: tl.constexpr, STAGES: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    acc = _tile_product(a_desc, b_desc, off_m, off_n, K, BLOCK_M, BLOCK_N, BLOCK_K, STAGES)
    c_desc.store([off_m, off_n], acc.to(tl.float16))


def _alloc(size: int, alignment: int, stream):
    return torch.empty(size, device=DEVICE, dtype=torch.int8)


class Model(torch.nn.Module):
    def forward(self, a, b):
        return (a.float() @ b.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        m, k = a.shape
        n = b.shape[1]
        c = torch.empty((m, n), device=a.device, dtype=torch.float16)
        triton.set_allocator(_alloc)
        matmul_desc_kernel[(triton.cdiv(m, 128), triton.cdiv(n, 128))](
            a, b, c, m, n, k, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, STAGES=4, num_warps=8)
        return c


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16) * 0.1,
            torch.randn(K, N, device=DEVICE, dtype=torch.float16) * 0.1]


def get_init_inputs():
    return []
