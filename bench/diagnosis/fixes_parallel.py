"""Planted parallelism causes of the task benchmark (under-filled grid, wave tail, warps per
program): id -> (cause class, style tags, anchors, FIX pairs). See build_tasks.py."""

CAUSES = {
    "rowsum_long_rows": ("under-filled-grid", ["1d-grid", "chunked-row"],
        ["row_sum_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK=4096, num_warps=8)"],
        [("def row_sum_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK: tl.constexpr):\n"
          "    row = tl.program_id(0)\n",
          "def row_sum_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK: tl.constexpr,\n"
          "                   SPLITS: tl.constexpr):\n"
          "    row = tl.program_id(0)\n    split = tl.program_id(1)\n"),
         ("for start in range(0, n_cols, BLOCK):",
          "for start in range(split * BLOCK, n_cols, BLOCK * SPLITS):"),
         ("tl.store(out_ptr + row, tl.sum(acc, axis=0))",
          "tl.atomic_add(out_ptr + row, tl.sum(acc, axis=0))"),
         ("out = torch.empty(rows, device=x.device, dtype=torch.float32)",
          "out = torch.zeros(rows, device=x.device, dtype=torch.float32)"),
         ("row_sum_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK=4096, num_warps=8)",
          "row_sum_kernel[(rows, 32)](x, out, cols, x.stride(0), BLOCK=4096, SPLITS=32,\n"
          "                                 num_warps=8)")]),
    "gemm_small_mn_long_k": ("under-filled-grid", ["2d-grid", "pointer-increment"],
        ["grid = (m // 128, n // 128)"],
        [("BLOCK_K: tl.constexpr):", "BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):"),
         ("    rk = tl.arange(0, BLOCK_K)\n",
          "    rk = tl.program_id(2) * BLOCK_K + tl.arange(0, BLOCK_K)\n"),
         ("    for k in range(0, K, BLOCK_K):\n",
          "    for k in range(tl.program_id(2) * BLOCK_K, K, BLOCK_K * SPLIT_K):\n"),
         ("        a_ptrs += BLOCK_K * stride_ak\n        b_ptrs += BLOCK_K * stride_bk\n",
          "        a_ptrs += BLOCK_K * SPLIT_K * stride_ak\n"
          "        b_ptrs += BLOCK_K * SPLIT_K * stride_bk\n"),
         ("tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(tl.float16))",
          "tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc)"),
         ("c = torch.empty((m, n), device=a.device, dtype=torch.float16)",
          "c = torch.zeros((m, n), device=a.device, dtype=torch.float32)"),
         ("grid = (m // 128, n // 128)", "grid = (m // 128, n // 128, 8)"),
         ("num_warps=8, num_stages=4)\n        return c\n",
          "SPLIT_K=8, num_warps=8, num_stages=4)\n        return c.half()\n")]),
    "gemm_wide_tile_2176": ("wave-tail", ["2d-grid", "config-dict"],
        ["cfg = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, num_warps=8, num_stages=3)"],
        [("cfg = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, num_warps=8, num_stages=3)",
          "cfg = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)")]),
    "persistent_gemm_sm_count": ("wave-tail", ["persistent", "helper-jit", "grouped-order"],
        ["NUM_SMS = 148  # B200", "programs = min(NUM_SMS, tiles)"],
        [("NUM_SMS = 148  # B200",
          "NUM_SMS = (torch.cuda.get_device_properties(0).multi_processor_count\n"
          "           if torch.cuda.is_available() else 132)")]),
    "layernorm_fp16_narrow_rows": ("warps-per-program", ["one-row-per-program", "fp16"],
        ["BLOCK_SIZE=triton.next_power_of_2(cols), num_warps=16)"],
        [("BLOCK_SIZE=triton.next_power_of_2(cols), num_warps=16)",
          "BLOCK_SIZE=triton.next_power_of_2(cols), num_warps=4)")]),
}
