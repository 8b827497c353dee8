"""Persistent fp16 GEMM on tensor descriptors (TMA), one program per SM walking the output tiles
in grouped order."""
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
    "interpret_shapes": {"M": 256, "N": 256, "K": 128},
}


@triton.jit
def _grouped_tile(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    width = GROUP_M * num_pid_n
    first_m = (tile_id // width) * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    return first_m + (tile_id % width) % size_m, (tile_id % width) // size_m


@triton.jit
def matmul_tma_persistent(a_ptr, b_ptr, c_ptr, M, N, K, NUM_SMS: tl.constexpr,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                          GROUP_M: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    for tile_id in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, flatten=True):
        pid_m, pid_n = _grouped_tile(tile_id, num_pid_m, num_pid_n, GROUP_M)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, K, BLOCK_K):
            a = a_desc.load([pid_m * BLOCK_M, k])
            b = b_desc.load([k, pid_n * BLOCK_N])
            acc = tl.dot(a, b, acc)
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16))


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
        sms = torch.cuda.get_device_properties(0).multi_processor_count \
            if torch.cuda.is_available() else 132
        tiles = triton.cdiv(m, 128) * triton.cdiv(n, 128)
        matmul_tma_persistent[(min(sms, tiles),)](a, b, c, m, n, k, NUM_SMS=min(sms, tiles),
                                                  BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                                                  GROUP_M=8, num_warps=8, num_stages=4)
        return c


def get_inputs():
    return [torch.randn(M, K, device=DEVICE, dtype=torch.float16) * 0.1,
            torch.randn(K, N, device=DEVICE, dtype=torch.float16) * 0.1]


def get_init_inputs():
    return []
