"""Embedding lookup: 16384 token ids into a 128256 x 4096 fp16 table (LLaMA-3 vocabulary)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TOKENS = 16384
VOCAB = 128256
DIM = 4096

STRATA_TASK = {
    "category": "indexing",
    "flops": "0",
    "bytes": "2 * TOKENS * DIM * 2 + TOKENS * 8",
    "extra_shapes": [{"TOKENS": 9, "VOCAB": 50, "DIM": 300}],
    "interpret_shapes": {"TOKENS": 16, "VOCAB": 1000, "DIM": 256},
}


@triton.jit
def embedding_kernel(ids_ptr, table_ptr, out_ptr, dim, stride_table, BLOCK_SIZE: tl.constexpr):
    token = tl.program_id(0)
    row = tl.load(ids_ptr + token)
    for start in range(0, dim, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < dim
        vals = tl.load(table_ptr + row * stride_table + cols, mask=mask)
        tl.store(out_ptr + token * dim + cols, vals, mask=mask)


class Model(torch.nn.Module):
    def forward(self, ids, table):
        return torch.nn.functional.embedding(ids, table)


class ModelNew(torch.nn.Module):
    def forward(self, ids, table):
        dim = table.shape[1]
        out = torch.empty((*ids.shape, dim), device=table.device, dtype=table.dtype)
        embedding_kernel[(ids.numel(),)](ids, table, out, dim, table.stride(0), BLOCK_SIZE=1024)
        return out


def get_inputs():
    ids = torch.randint(0, VOCAB, (TOKENS,), device=DEVICE)
    table = torch.randn(VOCAB, DIM, device=DEVICE, dtype=torch.float16)
    return [ids, table]


def get_init_inputs():
    return []
