"""Scatter-add rows: out = zeros(V, D).index_add_(0, idx, src), 65536 rows of 1024 into 8192 bins."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SOURCE_ROWS = 65536
TARGET_ROWS = 8192
DIM = 1024

STRATA_TASK = {
    "category": "indexing",
    "flops": "SOURCE_ROWS * DIM",
    "bytes": "(SOURCE_ROWS * DIM + TARGET_ROWS * DIM) * 4 + SOURCE_ROWS * 8",
    "extra_shapes": [{"SOURCE_ROWS": 50, "TARGET_ROWS": 7, "DIM": 130}],
    "interpret_shapes": {"SOURCE_ROWS": 64, "TARGET_ROWS": 16, "DIM": 256},
}


@triton.jit
def index_add_kernel(src_ptr, idx_ptr, out_ptr, dim, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    block = tl.program_id(1)
    cols = block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < dim
    target = tl.load(idx_ptr + row, eviction_policy="evict_first")
    vals = tl.load(src_ptr + row * dim + cols, mask=mask, other=0.0, eviction_policy="evict_first")
    tl.atomic_add(out_ptr + target * dim + cols, vals, mask=mask, sem="relaxed")


class Model(torch.nn.Module):
    def __init__(self, target_rows: int = TARGET_ROWS):
        super().__init__()
        self.target_rows = target_rows

    def forward(self, src, index):
        out = torch.zeros((self.target_rows, src.shape[1]), device=src.device, dtype=src.dtype)
        return out.index_add_(0, index, src)


class ModelNew(Model):
    def forward(self, src, index):
        src = src.contiguous()
        n_rows, dim = src.shape
        out = torch.zeros((self.target_rows, dim), device=src.device, dtype=src.dtype)
        grid = (n_rows, triton.cdiv(dim, 4096))
        index_add_kernel[grid](src, index, out, dim, BLOCK_SIZE=4096, num_warps=8)
        return out


def get_inputs():
    src = torch.randn(SOURCE_ROWS, DIM, device=DEVICE)
    index = torch.randint(0, TARGET_ROWS, (SOURCE_ROWS,), device=DEVICE)
    return [src, index]


def get_init_inputs():
    return [TARGET_ROWS]

