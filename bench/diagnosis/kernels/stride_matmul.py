"""Planted cause: a matmul whose inner strides are run-time ints (1 at launch): the K-loop
loads cannot be vectorized, so they are not pipelined (run-time unit stride)."""
import triton
import triton.language as tl


@triton.jit
def mm_kernel(A, B, C, M, N, K, sam, sak, sbk, sbn, scm,
              TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * TM + tl.arange(0, TM)
    rn = pn * TN + tl.arange(0, TN)
    rk = tl.arange(0, TK)
    acc = tl.zeros((TM, TN), dtype=tl.float32)
    for k0 in range(0, K, TK):
        a = tl.load(A + rm[:, None] * sam + (k0 + rk)[None, :] * sak)
        b = tl.load(B + (k0 + rk)[:, None] * sbk + rn[None, :] * sbn)
        acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * scm + rn[None, :], acc.to(tl.float16))
