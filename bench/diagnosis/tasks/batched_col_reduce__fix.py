"""x.sum(dim=1) of a (B, N, D) fp32 tensor (pooling over the sequence), one program per
(batch, feature)."""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 32
SEQ = 4096
DIM = 1024

STRATA_TASK = {
    "category": "reduction",
    "flops": "BATCH * SEQ * DIM",
    "bytes": "BATCH * SEQ * DIM * 4 + BATCH * DIM * 4",
    "interpret_shapes": {"BATCH": 2, "SEQ": 96, "DIM": 8},
}


@triton.jit
def seq_sum_kernel(x_ptr, out_ptr, seq_len, dim, stride_b, stride_s, stride_d, out_stride_b,
                   BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    offs = tl.arange(0, BLOCK_S)
    acc = tl.zeros((BLOCK_S, BLOCK_D), tl.float32)
    for s0 in range(0, seq_len, BLOCK_S):
        s = s0 + offs
        acc += tl.load(x_ptr + b * stride_b + s[:, None] * stride_s + d[None, :] * stride_d,
                       mask=(s[:, None] < seq_len) & (d[None, :] < dim), other=0.0)
    tl.store(out_ptr + b * out_stride_b + d, tl.sum(acc, axis=0), mask=d < dim)


class Model(torch.nn.Module):
    def forward(self, x):
        return x.sum(dim=1)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        batch, seq, dim = x.shape
        out = torch.empty((batch, dim), device=x.device, dtype=torch.float32)
        seq_sum_kernel[(batch, triton.cdiv(dim, 64))](x, out, seq, dim, x.stride(0),
                                                      x.stride(1), x.stride(2), out.stride(0),
                                                      BLOCK_S=32, BLOCK_D=64, num_warps=4)
        return out


def get_inputs():
    return [torch.randn(BATCH, SEQ, DIM, device=DEVICE)]


def get_init_inputs():
    return []
