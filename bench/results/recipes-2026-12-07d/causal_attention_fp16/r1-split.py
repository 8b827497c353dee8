"""Causal attention (decoder prefill), fp16, B=2, H=16, S=4096, D=128, flash-style online softmax."""
import math

import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH = 2
HEADS = 16
SEQ = 4096
HEAD_DIM = 128

STRATA_TASK = {
    "category": "attention",
    "flops": "2 * BATCH * HEADS * SEQ * SEQ * HEAD_DIM",
    "bytes": "4 * BATCH * HEADS * SEQ * HEAD_DIM * 2",
    "precision": "fp16",
    "extra_shapes": [{"BATCH": 1, "HEADS": 3, "SEQ": 77}],
    "interpret_shapes": {"BATCH": 1, "HEADS": 2, "SEQ": 96, "HEAD_DIM": 64},
}


@triton.jit
def causal_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, sm_scale,
                            stride_b, stride_h, stride_s, n_heads, HEAD_DIM: tl.constexpr,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_bh = tl.program_id(1)
    base = (pid_bh // n_heads) * stride_b + (pid_bh % n_heads) * stride_h
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :],
                mask=offs_m[:, None] < seq_len, other=0.0)
    m_i = tl.full((BLOCK_M,), -float("inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    # keys past the last query row of this block are all masked: stop there
    _kv_lo = tl.minimum(tl.minimum((pid_m + 1) * BLOCK_M, pid_m * BLOCK_M // BLOCK_N * BLOCK_N), seq_len // BLOCK_N * BLOCK_N)  # the blocks below it need no mask
    for start_n in range(0, _kv_lo, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_mask = offs_n[:, None] < seq_len
        k = tl.load(k_ptr + base + offs_n[:, None] * stride_s + offs_d[None, :], mask=kv_mask,
                    other=0.0)
        qk = tl.dot(q, tl.trans(k)) * sm_scale
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + offs_n[:, None] * stride_s + offs_d[None, :], mask=kv_mask,
                    other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    for start_n in range(_kv_lo, (pid_m + 1) * BLOCK_M, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_mask = offs_n[:, None] < seq_len
        k = tl.load(k_ptr + base + offs_n[:, None] * stride_s + offs_d[None, :], mask=kv_mask,
                    other=0.0)
        qk = tl.dot(q, tl.trans(k)) * sm_scale
        causal = (offs_m[:, None] >= offs_n[None, :]) & (offs_n[None, :] < seq_len)
        qk = tl.where(causal, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + offs_n[:, None] * stride_s + offs_d[None, :], mask=kv_mask,
                    other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :], acc.to(tl.float16),
             mask=offs_m[:, None] < seq_len)


class Model(torch.nn.Module):
    def forward(self, q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)


class ModelNew(torch.nn.Module):
    def forward(self, q, k, v):
        batch, heads, seq_len, head_dim = q.shape
        o = torch.empty_like(q)
        BLOCK_M, BLOCK_N = 64, 64
        grid = (triton.cdiv(seq_len, BLOCK_M), batch * heads)
        causal_attention_kernel[grid](q, k, v, o, seq_len, 1.0 / math.sqrt(head_dim),
                                      q.stride(0), q.stride(1), q.stride(2), heads,
                                      HEAD_DIM=head_dim, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                                      num_warps=4, num_stages=2)
        return o


def get_inputs():
    shape = (BATCH, HEADS, SEQ, HEAD_DIM)
    return [torch.randn(shape, device=DEVICE, dtype=torch.float16) for _ in range(3)]


def get_init_inputs():
    return []

