"""Non-causal attention softmax(Q K^T / sqrt(D)) V, fp16, B=4, H=16, S=2048, D=64 (flash-style)."""
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
    "extra_shapes": [{"BATCH": 1, "HEADS": 2, "SEQ": 100}],
    "interpret_shapes": {"BATCH": 1, "HEADS": 2, "SEQ": 128},
}


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, sm_scale, stride_bh, stride_s,
                     HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    base = bh * stride_bh
    q = tl.load(q_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :],
                mask=offs_m[:, None] < seq_len, other=0.0)
    m_i = tl.full((BLOCK_M,), -float("inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    _kv_lo = tl.minimum(seq_len, seq_len // BLOCK_N * BLOCK_N)  # the blocks below it need no mask
    for start_n in range(0, _kv_lo, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + base + offs_n[:, None] * stride_s + offs_d[None, :],
                    mask=offs_n[:, None] < seq_len, other=0.0)
        v = tl.load(v_ptr + base + offs_n[:, None] * stride_s + offs_d[None, :],
                    mask=offs_n[:, None] < seq_len, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * (sm_scale * 1.4426950408889634)
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    for start_n in range(_kv_lo, seq_len, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + base + offs_n[:, None] * stride_s + offs_d[None, :],
                    mask=offs_n[:, None] < seq_len, other=0.0)
        v = tl.load(v_ptr + base + offs_n[:, None] * stride_s + offs_d[None, :],
                    mask=offs_n[:, None] < seq_len, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * (sm_scale * 1.4426950408889634)
        qk = tl.where(offs_n[None, :] < seq_len, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :], out.to(tl.float16),
             mask=offs_m[:, None] < seq_len)


class Model(torch.nn.Module):
    def forward(self, q, k, v):
        scale = 1.0 / math.sqrt(q.shape[-1])
        scores = torch.matmul(q, k.transpose(-2, -1)) * scale
        return torch.matmul(torch.softmax(scores, dim=-1), v)


class ModelNew(torch.nn.Module):
    def forward(self, q, k, v):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        batch, heads, seq_len, head_dim = q.shape
        o = torch.empty_like(q)
        grid = (triton.cdiv(seq_len, 128), batch * heads)
        attention_kernel[grid](q, k, v, o, seq_len, 1.0 / math.sqrt(head_dim),
                               q.stride(1), q.stride(2), HEAD_DIM=head_dim, BLOCK_M=128,
                               BLOCK_N=64, num_warps=8, num_stages=3)
        return o


def get_inputs():
    shape = (BATCH, HEADS, SEQ, HEAD_DIM)
    return [torch.randn(shape, device=DEVICE, dtype=torch.float16) for _ in range(3)]


def get_init_inputs():
    return []


