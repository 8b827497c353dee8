"""Planted tensor-core, pipelining, register and layout causes of the task benchmark:
id -> (cause class, style tags, anchors, FIX pairs). See build_tasks.py for the format."""

CAUSES = {
    "matmul_broadcast_helper": ("mma-v2-not-wgmma", ["helper-jit", "2d-grid", "masks-other"],
        ["return tl.sum(a.to(tl.float32)[:, :, None] * b.to(tl.float32)[None, :, :], axis=1)",
         "acc += _tile_product(a, b)"],
        [("return tl.sum(a.to(tl.float32)[:, :, None] * b.to(tl.float32)[None, :, :], axis=1)",
          "return tl.dot(a, b)"),
         ("bm, bn, bk = 32, 32, 8", "bm, bn, bk = 128, 128, 32")]),
    "attention_fwd_small_qblock": ("mma-v2-not-wgmma", ["attention", "online-softmax", "2d-grid"],
        ["qk = tl.dot(q, tl.trans(k)) * qk_scale",
         "acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)", "block_m = 32"],
        [("block_m = 32", "block_m = 128"),
         ("HEAD_DIM=dim, BLOCK_M=block_m, BLOCK_N=64, num_warps=4,",
          "HEAD_DIM=dim, BLOCK_M=block_m, BLOCK_N=64, num_warps=8,")]),
    "gemm_grouped_autotune_fp16": ("operand-upcast", ["autotune", "grouped-order", "grid-lambda"],
        ["acc = tl.dot(a.to(tl.float32), b.to(tl.float32), acc)"],
        [("acc = tl.dot(a.to(tl.float32), b.to(tl.float32), acc)", "acc = tl.dot(a, b, acc)")]),
    "w8a16_gemm": ("operand-upcast", ["quantized", "2d-grid", "epilogue-scale"],
        ["acc += tl.dot(a.to(tl.float32), w.to(tl.float32))"],
        [("acc += tl.dot(a.to(tl.float32), w.to(tl.float32))",
          "acc += tl.dot(a, w.to(tl.float16))")]),
    "gemm_while_k_loop": ("no-pipelining", ["while-loop", "2d-grid", "masks-other"],
        ["while k < K:",
         "a = tl.load(A + rm[:, None] * stride_am + (k + rk)[None, :] * stride_ak,",
         "b = tl.load(B + (k + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,"],
        [("    k = 0\n    while k < K:\n", "    for k in range(0, K, BLOCK_K):\n"),
         ("        k += BLOCK_K\n", "")]),
    "gemm_tensor_desc": ("no-pipelining", ["tensor-descriptor", "2d-grid", "set-allocator"],
        ["a = a_desc.load([off_m, k])", "b = b_desc.load([k, off_n])",
         "num_warps=8, num_stages=1)"],
        [("num_warps=8, num_stages=1)", "num_warps=8, num_stages=3)")]),
    "gemm_square_tile_256": ("register-spill", ["2d-grid", "pointer-increment"],
        ["block_m, block_n = 256, 256", "acc = tl.dot(a, b, acc)",
         "BLOCK_N=block_n, BLOCK_K=32, num_warps=4, num_stages=3)"],
        [("block_m, block_n = 256, 256", "block_m, block_n = 256, 128"),
         ("BLOCK_N=block_n, BLOCK_K=32, num_warps=4, num_stages=3)",
          "BLOCK_N=block_n, BLOCK_K=32, num_warps=8, num_stages=3)")]),
    "bias_add_2d_tiles": ("tiny-tiles", ["2d-grid", "broadcast"],
        ["BLOCK_M, BLOCK_N = 4, 32"], [("BLOCK_M, BLOCK_N = 4, 32", "BLOCK_M, BLOCK_N = 16, 256")]),
    "rmsnorm_fp16_wide": ("low-occupancy", ["heuristics", "one-row-per-program", "fp16"],
        ["rmsnorm_kernel[(rows,)](x, w, y, x.stride(0), cols, EPS, num_warps=4)"],
        [("cols, EPS, num_warps=4)", "cols, EPS, num_warps=16)")]),
    "rotary_gptj_pairs": ("layout-conversion", ["2d-tile", "strided-pairs", "fp16"],
        ["x0 = tl.load(even, mask=mask, other=0.0).to(tl.float32)",
         "x1 = tl.load(even + 1, mask=mask, other=0.0).to(tl.float32)",
         "tl.store(out, (x0 * c - x1 * s).to(tl.float16), mask=mask)",
         "tl.store(out + 1, (x0 * s + x1 * c).to(tl.float16), mask=mask)"],
        [("""    even = x_ptr + rows[:, None] * stride_row + 2 * pairs[None, :]
    x0 = tl.load(even, mask=mask, other=0.0).to(tl.float32)
    x1 = tl.load(even + 1, mask=mask, other=0.0).to(tl.float32)
    out = y_ptr + rows[:, None] * stride_row + 2 * pairs[None, :]
    tl.store(out, (x0 * c - x1 * s).to(tl.float16), mask=mask)
    tl.store(out + 1, (x0 * s + x1 * c).to(tl.float16), mask=mask)
""", """    feats = tl.arange(0, 2 * HALF)
    offs = rows[:, None] * stride_row + feats[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x0, x1 = tl.split(tl.reshape(x, (BLOCK_R, HALF, 2)))
    y = tl.reshape(tl.join(x0 * c - x1 * s, x0 * s + x1 * c), (BLOCK_R, 2 * HALF))
    tl.store(y_ptr + offs, y.to(tl.float16), mask=mask)
""")]),
    "bmm_fp32_exact_blockptr": ("fma-fallback", ["block-ptr", "3d-grid", "fp32"],
        ['acc = tl.dot(a, b, acc, input_precision="ieee")'],
        [('input_precision="ieee"', 'input_precision="tf32"')]),
    "gemm_strides_nospec": ("runtime-unit-stride", ["do_not_specialize", "2d-grid"],
        ['@triton.jit(do_not_specialize=["stride_am", "stride_ak", "stride_bk", "stride_bn", '
         '"stride_cm",',
         "a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :] * stride_ak,",
         "b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,"],
        [('@triton.jit(do_not_specialize=["stride_am", "stride_ak", "stride_bk", "stride_bn", '
          '"stride_cm",\n                               "stride_cn"])',
          "@triton.jit")]),
    "rmsnorm_huge_block_spill": ("register-spill", ["one-row-per-program", "whole-row-block"],
        ["BLOCK=triton.next_power_of_2(cols), num_warps=2)"],
        [("BLOCK=triton.next_power_of_2(cols), num_warps=2)",
          "BLOCK=triton.next_power_of_2(cols), num_warps=16)")]),
    "gate_up_dual_dot_spill": ("register-spill", ["2d-grid", "fused-epilogue", "two-dots"],
        ["bm, bn, bk = 128, 256, 64"],
        [("bm, bn, bk = 128, 256, 64", "bm, bn, bk = 128, 128, 64"),
         ("BLOCK_K=bk, num_warps=4, num_stages=2)", "BLOCK_K=bk, num_warps=8, num_stages=3)")]),
    "gemm_desc_single_stage": ("no-pipelining", ["tensor-descriptor", "helper-jit", "2d-grid"],
        ["a = a_desc.load([off_m, k])", "b = b_desc.load([k, off_n])"],
        [("BLOCK_K=64, STAGES=1, num_warps=8)", "BLOCK_K=64, STAGES=4, num_warps=8)")]),
}
