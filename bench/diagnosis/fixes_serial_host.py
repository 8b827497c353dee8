"""Planted serialization causes (atomics onto few addresses, loop-carried dependences,
reductions and barriers in the hot loop) and launch / host causes (a host loop of launches,
torch glue in the forward) of the task benchmark: id -> (cause class, style tags, anchors,
FIX pairs). See build_tasks.py."""

CAUSES = {
    "sum_of_squares_loss": ("atomic-contention", ["1d-grid", "loss"],
        ["tl.atomic_add(out_ptr + tl.zeros_like(offs), 0.5 * x * x, mask=mask)"],
        [("tl.atomic_add(out_ptr + tl.zeros_like(offs), 0.5 * x * x, mask=mask)",
          "tl.atomic_add(out_ptr, tl.sum(0.5 * x * x, axis=0))")]),
    "histogram_16_bins": ("atomic-contention", ["1d-grid", "integer"],
        ["tl.atomic_add(hist_ptr + ids, tl.full((BLOCK,), 1, tl.int32), mask=mask)"],
        [("tl.atomic_add(hist_ptr + ids, tl.full((BLOCK,), 1, tl.int32), mask=mask)",
          "tl.atomic_add(hist_ptr + tl.arange(0, NUM_BINS),\n"
          "                  tl.histogram(ids, NUM_BINS, mask=mask))")]),
    "cumsum_rows_loop": ("loop-carried-dependence", ["one-row-per-program", "scalar-loop"],
        ["for i in range(0, n_cols):", "running += tl.load(x_row + i)"],
        [("""    for i in range(0, n_cols):
        running += tl.load(x_row + i)
        tl.store(y_row + i, running)
""", """    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0)
        tl.store(y_row + offs, running + tl.cumsum(x, axis=0), mask=mask)
        running += tl.sum(x, axis=0)
""")]),
    "linear_recurrence": ("loop-carried-dependence", ["2d-grid", "scan", "channel-band"],
        ["for t in range(0, seq_len):", "h = a_t * h + x_t"],
        [("@triton.jit\ndef recurrence_kernel",
          "@triton.jit\ndef _affine_combine(a_l, x_l, a_r, x_r):\n"
          "    return a_l * a_r, x_l * a_r + x_r\n\n\n@triton.jit\ndef recurrence_kernel"),
         ("""    for t in range(0, seq_len):
        a_t = tl.load(a_ptr + base + t * stride_t, mask=dmask, other=1.0)
        x_t = tl.load(x_ptr + base + t * stride_t, mask=dmask, other=0.0)
        h = a_t * h + x_t
        tl.store(h_ptr + base + t * stride_t, h, mask=dmask)
""", """    ts = tl.arange(0, BLOCK_T)
    for t0 in range(0, seq_len, BLOCK_T):
        offs = base[None, :] + (t0 + ts)[:, None] * stride_t
        mask = ((t0 + ts)[:, None] < seq_len) & dmask[None, :]
        a_blk = tl.load(a_ptr + offs, mask=mask, other=1.0)
        x_blk = tl.load(x_ptr + offs, mask=mask, other=0.0)
        a_cum, x_cum = tl.associative_scan((a_blk, x_blk), 0, _affine_combine)
        h_blk = a_cum * h[None, :] + x_cum
        tl.store(h_ptr + offs, h_blk, mask=mask)
        h = tl.sum(tl.where((ts == BLOCK_T - 1)[:, None], h_blk, 0.0), axis=0)
"""), ("BLOCK_T=64,\n                                BLOCK_D=128, num_warps=4)",
       "BLOCK_T=32,\n                                BLOCK_D=128, num_warps=8)")]),
    "row_norms_wide": ("barrier-in-loop", ["one-row-per-program", "chunked-row"],
        ["total += tl.sum(x * x, axis=0)"],
        [("    total = 0.0\n", "    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n"),
         ("total += tl.sum(x * x, axis=0)", "acc += x * x"),
         ("tl.store(out_ptr + row, tl.sqrt(total))",
          "tl.store(out_ptr + row, tl.sqrt(tl.sum(acc, axis=0)))")]),
    "gemv_fp16_rows": ("barrier-in-loop", ["matvec", "row-block"],
        ["acc += tl.sum(w.to(tl.float32) * x.to(tl.float32)[None, :], axis=1)"],
        [("acc = tl.zeros((BLOCK_N,), dtype=tl.float32)",
          "acc = tl.zeros((BLOCK_N, BLOCK_K), dtype=tl.float32)"),
         ("acc += tl.sum(w.to(tl.float32) * x.to(tl.float32)[None, :], axis=1)",
          "acc += w.to(tl.float32) * x.to(tl.float32)[None, :]"),
         ("tl.store(y_ptr + rows, acc.to(tl.float16), mask=rows < N)",
          "tl.store(y_ptr + rows, tl.sum(acc, axis=1).to(tl.float16), mask=rows < N)")]),
    "attention_scores_softmax": ("host-launch-loop", ["kernelbench-glue", "per-slice-launch"],
        ["for b in range(batch):", "for h in range(heads):",
         "softmax_kernel[(seq,)](scores[b, h], out[b, h], scores.stride(2), keys,"],
        [("""        for b in range(batch):
            for h in range(heads):
                softmax_kernel[(seq,)](scores[b, h], out[b, h], scores.stride(2), keys,
                                       BLOCK=block, num_warps=4)
""", """        softmax_kernel[(batch * heads * seq,)](scores, out, scores.stride(2), keys, BLOCK=block,
                                               num_warps=4)
""")]),
    "batched_gemm_per_item": ("host-launch-loop", ["kernelbench-glue", "per-item-launch"],
        ["for i in range(batch):", "gemm_tile_kernel[grid](a[i], b[i], c[i], m, n, k, a.stride(1),"],
        [("""def gemm_tile_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
""", """def gemm_tile_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, stride_ab,
                     stride_bb, stride_cb, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2)
    a_ptr += batch * stride_ab
    b_ptr += batch * stride_bb
    c_ptr += batch * stride_cb
"""), ("""        grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
        for i in range(batch):
            gemm_tile_kernel[grid](a[i], b[i], c[i], m, n, k, a.stride(1), b.stride(1),
                                   c.stride(1), BLOCK_M=64, BLOCK_N=64, BLOCK_K=64,
                                   num_warps=4, num_stages=3)
""", """        grid = (triton.cdiv(m, 64), triton.cdiv(n, 64), batch)
        gemm_tile_kernel[grid](a, b, c, m, n, k, a.stride(1), b.stride(1), c.stride(1),
                               a.stride(0), b.stride(0), c.stride(0), BLOCK_M=64, BLOCK_N=64,
                               BLOCK_K=64, num_warps=4, num_stages=3)
""")]),
    "linear_decode_weight_t": ("torch-glue", ["kernelbench-glue", "skinny-gemm", "2d-grid"],
        ["w_t = weight.t().contiguous()"],
        [("w_t = weight.t().contiguous()", "w_t = weight.t()")]),
    "rmsnorm_residual_glue": ("torch-glue", ["kernelbench-glue", "one-row-per-program"],
        ["h = (x + residual).float()", "return y.half()"],
        [("def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):",
          "def rmsnorm_fwd(x_ptr, r_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):"),
         ("    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)\n",
          "    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)\n"
          "    x += tl.load(r_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)\n"),
         ("tl.store(y_ptr + row * stride + cols, x * rstd * w, mask=mask)",
          "tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(tl.float16), mask=mask)"),
         ("""        h = (x + residual).float()
        y = torch.empty_like(h)
        rows, cols = h.shape
        rmsnorm_fwd[(rows,)](h, weight, y, h.stride(0), cols, EPS,
                             BLOCK=triton.next_power_of_2(cols), num_warps=8)
        return y.half()
""", """        y = torch.empty_like(x)
        rows, cols = x.shape
        rmsnorm_fwd[(rows,)](x, residual, weight, y, x.stride(0), cols, EPS,
                             BLOCK=triton.next_power_of_2(cols), num_warps=8)
        return y
""")]),
    "token_count_atomic": ("atomic-contention", ["1d-grid", "flat-index", "integer"],
        ["tl.atomic_add(count_ptr + offs // n_cols, hit, mask=mask)"],
        [("tl.atomic_add(count_ptr + offs // n_cols, hit, mask=mask)",
          "tl.atomic_add(count_ptr + (tl.program_id(0) * BLOCK) // n_cols, tl.sum(hit, axis=0))")]),
    "grad_bias_atomic_rows": ("atomic-contention", ["one-row-per-program", "backward"],
        ["tl.atomic_add(db_ptr + cols, dy, mask=mask)"],
        [("""    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    dy = tl.load(dy_ptr + row * stride_row + cols, mask=mask, other=0.0)
    tl.atomic_add(db_ptr + cols, dy, mask=mask)
""", """    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    first = tl.program_id(1) * 128
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for row in range(first, min(first + 128, n_rows)):
        acc += tl.load(dy_ptr + row * stride_row + cols, mask=mask, other=0.0)
    tl.atomic_add(db_ptr + cols, acc, mask=mask)
"""), ("bias_grad_kernel[(m,)](dy, db, m, n, dy.stride(0), BLOCK_N=triton.next_power_of_2(n),\n"
       "                               num_warps=4)",
       "bias_grad_kernel[(triton.cdiv(n, 128), triton.cdiv(m, 128))](\n"
       "            dy, db, m, n, dy.stride(0), BLOCK_N=128, num_warps=1)")]),
    "cummax_rows_scalar": ("loop-carried-dependence", ["one-row-per-program", "scalar-loop",
                                                       "helper-jit"],
        ["for i in tl.range(0, n_cols):", "best = tl.maximum(best, tl.load(x_row + i))"],
        [("""    best = tl.load(x_row)
    for i in tl.range(0, n_cols):
        best = tl.maximum(best, tl.load(x_row + i))
        tl.store(y_row + i, best)
""", """    best = tl.load(x_row)
    for start in tl.range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=-float("inf"))
        run = tl.maximum(tl.associative_scan(x, 0, _max_combine), best)
        tl.store(y_row + offs, run, mask=mask)
        best = tl.maximum(best, tl.max(x, axis=0))
""")]),
    "ema_time_steps": ("loop-carried-dependence", ["2d-grid", "scan", "channel-band"],
        ["for t in range(0, seq_len):", "h = alpha * h + (1.0 - alpha) * x_t"],
        [("@triton.jit\ndef ema_kernel",
          "@triton.jit\ndef _affine_combine(a_l, x_l, a_r, x_r):\n"
          "    return a_l * a_r, x_l * a_r + x_r\n\n\n@triton.jit\ndef ema_kernel"),
         ("def ema_kernel(x_ptr, h_ptr, seq_len, channels, alpha, BLOCK_D: tl.constexpr):",
          "def ema_kernel(x_ptr, h_ptr, seq_len, channels, alpha, BLOCK_D: tl.constexpr,\n"
          "               BLOCK_T: tl.constexpr):"),
         ("""    for t in range(0, seq_len):
        x_t = tl.load(x_ptr + base + t * channels, mask=dmask, other=0.0)
        h = alpha * h + (1.0 - alpha) * x_t
        tl.store(h_ptr + base + t * channels, h, mask=dmask)
""", """    ts = tl.arange(0, BLOCK_T)
    for t0 in range(0, seq_len, BLOCK_T):
        offs = base[None, :] + (t0 + ts)[:, None] * channels
        mask = ((t0 + ts)[:, None] < seq_len) & dmask[None, :]
        x_blk = tl.load(x_ptr + offs, mask=mask, other=0.0)
        a_blk = tl.where(mask, alpha, 1.0) + tl.zeros_like(x_blk)
        a_cum, x_cum = tl.associative_scan((a_blk, (1.0 - alpha) * x_blk), 0, _affine_combine)
        h_blk = a_cum * h[None, :] + x_cum
        tl.store(h_ptr + offs, h_blk, mask=mask)
        h = tl.sum(tl.where((ts == BLOCK_T - 1)[:, None], h_blk, 0.0), axis=0)
"""), ("ema_kernel[(b, triton.cdiv(d, 128))](x, h, t, d, ALPHA, BLOCK_D=128, num_warps=4)",
       "ema_kernel[(b, triton.cdiv(d, 128))](x, h, t, d, ALPHA, BLOCK_D=128, BLOCK_T=32,\n"
       "                                             num_warps=8)")]),
}
