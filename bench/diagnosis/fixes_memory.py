"""Planted memory-traffic causes of the task benchmark (re-reads across loops, reloads across
programs, uncoalesced accesses): id -> (cause class, style tags, anchors, FIX pairs).
See build_tasks.py for the format."""
from anchors import Every

CAUSES = {
    "softmax_wide_rows": ("multi-pass-reread", ["chunked-row", "int64-row-offset"],
        [Every("for start in range(0, n_cols, BLOCK):"), Every("x = tl.load(x_row + start + offs")],
        [("""    running_max = tl.full((BLOCK,), -float("inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_row + start + offs, mask=start + offs < n_cols, other=-float("inf"))
        running_max = tl.maximum(running_max, x)
    row_max = tl.max(running_max, axis=0)

    partial_sum = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_row + start + offs, mask=start + offs < n_cols, other=-float("inf"))
        partial_sum += tl.exp(x - row_max)
    denom = tl.sum(partial_sum, axis=0)
""", """    running_max = tl.full((BLOCK,), -1e30, tl.float32)
    partial_sum = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_row + start + offs, mask=start + offs < n_cols, other=-float("inf"))
        new_max = tl.maximum(running_max, x)
        partial_sum = partial_sum * tl.exp(running_max - new_max) + tl.exp(x - new_max)
        running_max = new_max
    row_max = tl.max(running_max, axis=0)
    denom = tl.sum(partial_sum * tl.exp(running_max - row_max), axis=0)
""")]),
    "layernorm_wide_rows": ("multi-pass-reread", ["chunked-row", "pointer-increment"],
        [Every("for off in range(0, N, BLOCK_SIZE):"), Every("a = tl.load(X + off + cols")],
        [("""    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        a = tl.load(X + off + cols, mask=off + cols < N, other=0.0)
        acc += a
    mean = tl.sum(acc, axis=0) / N

    acc_var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        a = tl.load(X + off + cols, mask=off + cols < N, other=0.0)
        d = tl.where(off + cols < N, a - mean, 0.0)
        acc_var += d * d
    rstd = 1 / tl.sqrt(tl.sum(acc_var, axis=0) / N + eps)
""", """    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    acc_sq = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        a = tl.load(X + off + cols, mask=off + cols < N, other=0.0)
        acc += a
        acc_sq += a * a
    mean = tl.sum(acc, axis=0) / N
    var = tl.maximum(tl.sum(acc_sq, axis=0) / N - mean * mean, 0.0)
    rstd = 1 / tl.sqrt(var + eps)
""")]),
    "logsumexp_rows": ("multi-pass-reread", ["chunked-row", "row-output"],
        [Every("for start in range(0, n_cols, BLOCK_N):"), Every("v = tl.load(base + start + cols")],
        [("""    m_acc = tl.full([BLOCK_N], float("-inf"), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        v = tl.load(base + start + cols, mask=start + cols < n_cols, other=float("-inf"))
        m_acc = tl.maximum(m_acc, v)
    m = tl.max(m_acc, axis=0)
    s_acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        v = tl.load(base + start + cols, mask=start + cols < n_cols, other=float("-inf"))
        s_acc += tl.exp(v - m)
""", """    m_acc = tl.full([BLOCK_N], -1e30, dtype=tl.float32)
    s_acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        v = tl.load(base + start + cols, mask=start + cols < n_cols, other=float("-inf"))
        m_new = tl.maximum(m_acc, v)
        s_acc = s_acc * tl.exp(m_acc - m_new) + tl.exp(v - m_new)
        m_acc = m_new
    m = tl.max(m_acc, axis=0)
    s_acc = s_acc * tl.exp(m_acc - m)
""")]),
}

CAUSES.update({
    "rownorm_scale_2dgrid": ("redundant-reload", ["2d-grid", "program-per-block"],
        ["v = tl.load(row_ptr + start + offs, mask=start + offs < n_cols, other=0.0)",
         "for start in range(0, n_cols, BLOCK):", "grid = (rows, triton.cdiv(cols, block))"],
        [("    col_block = tl.program_id(1)\n", ""),
         ("""    cols = col_block * BLOCK + offs
    x = tl.load(row_ptr + cols, mask=cols < n_cols)
    tl.store(y_ptr + row * stride + cols, x * inv_norm, mask=cols < n_cols)
""", """    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        x = tl.load(row_ptr + cols, mask=cols < n_cols)
        tl.store(y_ptr + row * stride + cols, x * inv_norm, mask=cols < n_cols)
"""), ("grid = (rows, triton.cdiv(cols, block))", "grid = (rows,)")]),
    "layernorm_2dgrid_stats": ("redundant-reload", ["2d-grid", "heuristics", "grid-lambda", "fp16"],
        ["xs = tl.load(X + row * stride_x + start + offs, mask=start + offs < N, other=0.0)",
         "for start in range(0, N, BLOCK_N):",
         'grid = lambda meta: (rows, triton.cdiv(cols, meta["BLOCK_N"]))'],
        [("    pid_n = tl.program_id(1)\n", ""),
         ("""    cols = pid_n * BLOCK_N + offs
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    b = tl.load(B + cols, mask=mask).to(tl.float32)
    tl.store(Y + row * stride_y + cols, ((x - mean) * rstd * w + b).to(tl.float16), mask=mask)
""", """    for start in range(0, N, BLOCK_N):
        cols = start + offs
        mask = cols < N
        x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=mask).to(tl.float32)
        b = tl.load(B + cols, mask=mask).to(tl.float32)
        tl.store(Y + row * stride_y + cols, ((x - mean) * rstd * w + b).to(tl.float16),
                 mask=mask)
"""), ('grid = lambda meta: (rows, triton.cdiv(cols, meta["BLOCK_N"]))',
       "grid = lambda meta: (rows,)")]),
    "batched_col_reduce": ("uncoalesced", ["2d-grid", "strided-reduction"],
        ["acc += tl.load(x_ptr + b * stride_b + s * stride_s + d * stride_d, mask=s < seq_len,"],
        [("""def seq_sum_kernel(x_ptr, out_ptr, seq_len, stride_b, stride_s, stride_d, out_stride_b,
                   BLOCK_S: tl.constexpr):
    b = tl.program_id(0)
    d = tl.program_id(1)
    offs = tl.arange(0, BLOCK_S)
    acc = tl.zeros((BLOCK_S,), tl.float32)
    for s0 in range(0, seq_len, BLOCK_S):
        s = s0 + offs
        acc += tl.load(x_ptr + b * stride_b + s * stride_s + d * stride_d, mask=s < seq_len,
                       other=0.0)
    tl.store(out_ptr + b * out_stride_b + d, tl.sum(acc, axis=0))
""", """def seq_sum_kernel(x_ptr, out_ptr, seq_len, dim, stride_b, stride_s, stride_d, out_stride_b,
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
"""), ("""        seq_sum_kernel[(batch, dim)](x, out, seq, x.stride(0), x.stride(1), x.stride(2),
                                     out.stride(0), BLOCK_S=256, num_warps=4)""",
       """        seq_sum_kernel[(batch, triton.cdiv(dim, 64))](x, out, seq, dim, x.stride(0),
                                                      x.stride(1), x.stride(2), out.stride(0),
                                                      BLOCK_S=32, BLOCK_D=64, num_warps=4)""")]),
    "naive_transpose_rows": ("uncoalesced", ["1d-grid", "row-loop", "data-movement"],
        ["tl.store(dst + cols * n_rows + row, v, mask=mask)"],
        [("""    row = tl.program_id(0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(src + row * n_cols + cols, mask=mask)
        tl.store(dst + cols * n_rows + row, v, mask=mask)
""", """    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    v = tl.load(src + rows[:, None] * n_cols + cols[None, :], mask=mask)
    tl.store(dst + cols[None, :] * n_rows + rows[:, None], v, mask=mask)
"""), ("transpose_rows_kernel[(rows,)](x, y, rows, cols, BLOCK=1024, num_warps=4)",
       "transpose_rows_kernel[(triton.cdiv(rows, 64), triton.cdiv(cols, 64))](\n"
       "            x, y, rows, cols, BLOCK=64, num_warps=4)")]),
    "add_rows_runtime_stride": ("runtime-unit-stride", ["2d-grid", "strided-views",
                                                        "do-not-specialize"],
        ["x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask)",
         "r = tl.load(r_ptr + row * stride_rm + cols * stride_rn, mask=mask)",
         "tl.store(y_ptr + row * stride_ym + cols * stride_yn, x + r + b, mask=mask)"],
        [('@triton.jit(do_not_specialize=["stride_xn", "stride_rn", "stride_yn"])', "@triton.jit")]),
})
