"""Non-causal flash-attention forward (fp16, head dim 64): each program keeps a block of
queries and streams the keys and values with an online softmax."""
import math

import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 4
HEADS = 16
SEQ = 2048
HEAD_DIM = 64

STRATA_TASK = {
    "category": "attention",
    "flops": "4 * BATCH * HEADS * SEQ * SEQ * HEAD_DIM",
    "bytes": "4 * BATCH * HEADS * SEQ * HEAD_DIM * 2",
    "precision": "fp16",
    "interpret_shapes": {"BATCH": 1, "HEADS": 2, "SEQ": 128, "HEAD_DIM": 32},
}


@triton.jit
def attn_fwd_kernel(Q, K, V, O, sm_scale, seq_len, stride_h, stride_s,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    base = off_h.to(tl.int64) * stride_h
    q = tl.load(Q + base + offs_m[:, None] * stride_s + offs_d[None, :],
                mask=offs_m[:, None] < seq_len, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, seq_len, BLOCK_N):
        kv_rows = start_n + offs_n
        k = tl.load(K + base + kv_rows[:, None] * stride_s + offs_d[None, :],
                    mask=kv_rows[:, None] < seq_len, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        qk = tl.where(kv_rows[None, :] < seq_len, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(V + base + kv_rows[:, None] * stride_s + offs_d[None, :],
                    mask=kv_rows[:, None] < seq_len, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * stride_s + offs_d[None, :], out.to(tl.float16),
             mask=offs_m[:, None] < seq_len)


class Model(torch.nn.Module):
    def forward(self, q, k, v):
        scale = 1.0 / math.sqrt(q.shape[-1])
        p = torch.softmax(q.float() @ k.float().transpose(-1, -2) * scale, dim=-1)
        return (p @ v.float()).half()


class ModelNew(torch.nn.Module):
    def forward(self, q, k, v):
        batch, heads, seq, dim = q.shape
        o = torch.empty_like(q)
        block_m = 32
        grid = (triton.cdiv(seq, block_m), batch * heads)
        attn_fwd_kernel[grid](q, k, v, o, 1.0 / math.sqrt(dim), seq, q.stride(1), q.stride(2),
                              HEAD_DIM=dim, BLOCK_M=block_m, BLOCK_N=64, num_warps=4,
                              num_stages=3)
        return o


def get_inputs():
    shape = (BATCH, HEADS, SEQ, HEAD_DIM)
    return [torch.randn(shape, device=DEVICE, dtype=torch.float16) for _ in range(3)]


def get_init_inputs():
    return []
