"""Non-causal flash-attention forward (fp16, head dim 64) with 128-query blocks, 64-key blocks,
eight warps and a pipelined key loop."""
import math

import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 4
HEADS = 16
SEQ = 4096
HEAD_DIM = 64

STRATA_TASK = {
    "category": "attention",
    "flops": "4 * BATCH * HEADS * SEQ * SEQ * HEAD_DIM",
    "bytes": "4 * BATCH * HEADS * SEQ * HEAD_DIM * 2",
    "precision": "fp16",
    "interpret_shapes": {"BATCH": 1, "HEADS": 2, "SEQ": 256, "HEAD_DIM": 32},
}


@triton.jit
def flash_fwd(Q, K, V, O, qk_scale, seq_len, stride_bh, stride_s, HEAD_DIM: tl.constexpr,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + bh * stride_bh + offs_m[:, None] * stride_s + offs_d[None, :])
    k_ptrs = K + bh * stride_bh + offs_n[None, :] * stride_s + offs_d[:, None]
    v_ptrs = V + bh * stride_bh + offs_n[:, None] * stride_s + offs_d[None, :]
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    for start_n in tl.range(0, seq_len, BLOCK_N, num_stages=3):
        k = tl.load(k_ptrs + start_n * stride_s)
        qk = tl.dot(q, k) * qk_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptrs + start_n * stride_s)
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + bh * stride_bh + offs_m[:, None] * stride_s + offs_d[None, :],
             acc.to(tl.float16))


class Model(torch.nn.Module):
    def forward(self, q, k, v):
        scale = 1.0 / math.sqrt(q.shape[-1])
        p = torch.softmax(q.float() @ k.float().transpose(-1, -2) * scale, dim=-1)
        return (p @ v.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, q, k, v):
        batch, heads, seq, dim = q.shape
        o = torch.empty_like(q)
        grid = (triton.cdiv(seq, 128), batch * heads)
        flash_fwd[grid](q, k, v, o, 1.44269504 / math.sqrt(dim), seq, q.stride(1), q.stride(2),
                        HEAD_DIM=dim, BLOCK_M=128, BLOCK_N=64, num_warps=8)
        return o


def get_inputs():
    shape = (BATCH, HEADS, SEQ, HEAD_DIM)
    return [torch.randn(shape, device=DEVICE, dtype=torch.float16) for _ in range(3)]


def get_init_inputs():
    return []
