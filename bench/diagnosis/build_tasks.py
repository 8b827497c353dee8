#!/usr/bin/env python3
"""Writes the held-out task benchmark's fixed siblings (tasks/<id>__fix.py) and tasks/manifest.json.

Each planted task is listed once here: its cause class, the source text of the planted lines
(anchors: the manifest's `lines` are found from them, so editing a task cannot silently leave the
lines stale) and the edit that removes the cause (FIX pairs applied to the task's text). Anchors
live here, not as comments in the task files, because comments would be visible to the diagnoser.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fixes_compute  # noqa: E402
import fixes_memory  # noqa: E402
import fixes_parallel  # noqa: E402
import fixes_serial_host  # noqa: E402
from anchors import lines_of  # noqa: E402

TASKS = Path(__file__).resolve().parent / "tasks"

# name: (description, rules, kernel_level). `rules` are the documented rule ids (docs/diagnosis.md,
# and the older bench/diagnosis/manifest.json) whose finding names this mechanism; a kernel-level
# class scores a finding on any line (the mechanism belongs to the launch, not to one line).
# A class no documented rule names has an empty list: its tasks cannot score until one exists.
CLASSES = {
    "alignment": ("a pointer or stride not known 16-byte divisible forces scalar accesses",
                  ["L3.scalar-global-access"], False),
    "runtime-unit-stride": ("a run-time stride that is 1 at launch hides contiguity",
                            ["L1.runtime-unit-stride", "L3.scalar-global-access",
                             "L3.unpipelined-loop-load"], False),
    "fma-fallback": ("a matrix product computed on FMAs (ieee fp32 dot, or broadcast-multiply-sum)"
                     " instead of tensor cores", ["L3.fma-dot", "L1.fp32-dot-precision",
                                                  "L1.small-dot-tile"], False),
    "mma-v2-not-wgmma": ("a tl.dot whose tile or warps give mma.sync instead of wgmma on sm_90",
                         ["L3.mma-sync-dot"], False),
    "operand-upcast": ("16-bit (or int8) dot operands converted to fp32 before the dot: tf32 "
                       "tensor-core rate and conversion work", ["L1.fp32-dot-precision"], False),
    "no-pipelining": ("dot-loop loads not software-pipelined (num_stages=1, a while loop)",
                      ["L3.unpipelined-loop-load", "L1.unpipelined-dot-loop"], False),
    "register-spill": ("a tile too large for the register file of the CTA: local-memory spills",
                       ["L3.register-spill", "L3.wgmma-serialized", "L1.num-warps-mismatch"],
                       True),
    "tiny-tiles": ("tiles too small for the CTA: idle threads, many tiny programs",
                   ["L1.tiny-block", "L1.num-warps-mismatch"], True),
    "low-occupancy": ("registers per thread limit resident warps",
                      ["L3.low-occupancy", "L2.low-occupancy"], True),
    "layout-conversion": ("layout conversions through shared memory in the hot path",
                          ["L3.smem-layout-conversion"], False),
    "uncoalesced": ("consecutive lanes access addresses far apart",
                    ["L1.strided-access"], False),
    "multi-pass-reread": ("a tensor read from memory by several loops over it (N x the minimal "
                          "traffic)", ["L1.multi-pass-reread"], False),
    "redundant-reload": ("the same data loaded again from memory: each program of a 2-D grid "
                         "re-reads the whole row", ["L1.reload-same-pointer",
                                                    "L1.multi-pass-reread",
                                                    "L1.cross-program-reread"], False),
    "under-filled-grid": ("fewer programs than SMs: most of the GPU idles",
                          ["L1.under-filled-grid"], True),
    "wave-tail": ("programs a little over a whole number of waves: the last wave runs nearly "
                  "empty", ["L1.under-filled-grid", "L3.wave-tail"], True),
    "warps-per-program": ("more warps per program than the tile needs: cross-warp reductions "
                          "and fewer programs resident", ["L1.num-warps-mismatch"], True),
    "atomic-contention": ("per-element atomics onto few addresses serialize in L2",
                          ["L1.atomic-contention", "L1.atomic-in-loop"], False),
    "loop-carried-dependence": ("a serial chain through the loop (a scan or recurrence one "
                                "step at a time)", ["L1.scalar-load-loop", "L1.serial-recurrence"], False),
    "barrier-in-loop": ("a cross-warp reduction (shared memory + barrier) on every iteration of "
                        "the hot loop instead of once after it", [], False),
    "host-launch-loop": ("a Python loop of many small launches per forward",
                         ["L1.host-launch-loop", "L2.launch-bound"], True),
    "torch-glue": ("torch copies / casts in the forward around the kernel that cost more than "
                   "fusing them", ["L1.torch-glue"], True),
}
TRAP_CLASSES = {
    "trap:per-element-divmod": ("div/mod index math in a memory-bound kernel",
                                ["L1.per-element-divmod"]),
    "trap:scalar-access-coalesced": ("scalar (unvectorized) accesses over a contiguous, "
                                     "coalesced layout in a memory-bound kernel",
                                     ["L3.scalar-global-access"]),
    "trap:int64-index": ("64-bit offsets in a memory-bound kernel", ["L1.int64-index"]),
    "trap:fma-side-dot": ("an FMA (ieee fp32) dot on a tiny side computation of a memory-bound "
                          "kernel", ["L3.fma-dot", "L1.fp32-dot-precision"]),
    "trap:reload-cached": ("the same pointer loaded twice in one scope (served by L1)",
                           ["L1.reload-same-pointer"]),
    "trap:reduced-atomic-in-loop": ("one atomic per reduced block inside a persistent loop",
                                    ["L1.atomic-in-loop", "L1.atomic-contention"]),
    "trap:unpipelined-one-iteration": ("num_stages=1 on a dot loop that runs once (K = BLOCK_K)",
                                       ["L3.unpipelined-loop-load", "L1.unpipelined-dot-loop"]),
    "trap:epilogue-conversion": ("a layout conversion through shared memory once per tile, in "
                                 "the epilogue of a compute-bound GEMM",
                                 ["L3.smem-layout-conversion"]),
    "trap:spill-off-hot-path": ("a few spilled registers outside the hot loop",
                                ["L3.register-spill"]),
    "trap:strided-scalar-side-load": ("one strided scalar per program beside a coalesced "
                                      "stream", ["L1.strided-access"]),
}
CONTROL = {"control": ("a tuned kernel with no real cause", [])}

# id: (cause_class, style tags, anchors, fix pairs [(old, new)])
CAUSES = {
    "rowscale_nospec_fp16": ("alignment", ["2d-grid", "do_not_specialize"],
        ['@triton.jit(do_not_specialize=["stride_x", "stride_o"])'],
        [('@triton.jit(do_not_specialize=["stride_x", "stride_o"])', "@triton.jit")]),
    "strided_gelu_inner_stride": ("runtime-unit-stride", ["2d-grid", "grid-lambda", "helper-jit"],
        ['@triton.jit(do_not_specialize=["stride_xm", "stride_xn", "stride_ym", "stride_yn"])'],
        [('@triton.jit(do_not_specialize=["stride_xm", "stride_xn", "stride_ym", "stride_yn"])',
          '@triton.jit(do_not_specialize=["stride_xm", "stride_ym"])')]),
    "matmul_fp32_ieee_autotune": ("fma-fallback", ["autotune", "2d-grid", "masks-other"],
        ['acc = tl.dot(a, b, acc, input_precision="ieee")'],
        [('input_precision="ieee"', 'input_precision="tf32"')]),
    "matmul_blockptr_m32_fp16": ("mma-v2-not-wgmma", ["block-ptr", "2d-grid"],
        ["acc += tl.dot(a, b)", "bm, bn, bk = 32, 128, 64"],
        [("bm, bn, bk = 32, 128, 64", "bm, bn, bk = 128, 128, 64"),
         ("num_warps=4, num_stages=3)", "num_warps=8, num_stages=3)")]),
    "bmm_strided_two_warps": ("mma-v2-not-wgmma", ["3d-grid", "strided-batch", "grid-lambda"],
        ["acc = tl.dot(a, b, acc)", "num_warps=2, num_stages=3)"],
        [("num_warps=2, num_stages=3)", "num_warps=4, num_stages=3)")]),
    "matmul_autotune_stages1": ("no-pipelining", ["autotune", "grouped-order", "grid-lambda"],
        ["num_warps=8, num_stages=1)", "for k in range(0, tl.cdiv(K, BLOCK_K)):",
         "a = tl.load(a_ptrs", "b = tl.load(b_ptrs"],
        [("num_warps=8, num_stages=1)", "num_warps=8, num_stages=3)")]),
    "rmsnorm_wide_one_warp": ("register-spill", ["one-row-per-program"],
        ["BLOCK=triton.next_power_of_2(cols), num_warps=1)"],
        [("BLOCK=triton.next_power_of_2(cols), num_warps=1)",
          "BLOCK=triton.next_power_of_2(cols), num_warps=16)")]),
    "silu_small_block_bf16": ("tiny-tiles", ["1d-grid"],
        ["BLOCK_SIZE = 32"], [("BLOCK_SIZE = 32", "BLOCK_SIZE = 1024")]),
    "softmax_rows_two_warps": ("low-occupancy", ["one-row-per-program", "masks-other"],
        ["BLOCK=triton.next_power_of_2(cols), num_warps=2)"],
        [("BLOCK=triton.next_power_of_2(cols), num_warps=2)",
          "BLOCK=triton.next_power_of_2(cols), num_warps=16)")]),
    "rowscale_transpose_tile": ("layout-conversion", ["2d-tile"],
        ["xt = tl.trans(x)", "out = tl.trans(v / total[None, :])"],
        [("    xt = tl.trans(x)\n    v = xt * g[:, None]\n    total = tl.sum(v, axis=0)\n"
          "    out = tl.trans(v / total[None, :])\n",
          "    v = x * g[None, :]\n    total = tl.sum(v, axis=1)\n    out = v / total[:, None]\n")]),
    "col_center_per_column": ("uncoalesced", ["two-loops", "one-column-per-program"],
        ["acc += tl.load(x_ptr + r * n_cols + col, mask=r < n_rows, other=0.0)",
         "v = tl.load(x_ptr + r * n_cols + col, mask=r < n_rows, other=0.0)",
         "tl.store(y_ptr + r * n_cols + col, v - mean, mask=r < n_rows)"],
        None),  # hand-written fix (tiles of columns): tasks/col_center_per_column__fix.py
}

# id: (kind, class, style tags). A trap plants a compiler fact that is present but cheap; a
# control is a tuned kernel. Neither has a fix.
OTHERS = {
    "control_softmax_fp16": ("control", "control", ["one-row-per-program", "masks-other"]),
    "control_matmul_fp16": ("control", "control", ["autotune", "grouped-order", "pipelined"]),
    "control_add_fp32": ("control", "control", ["1d-grid", "vectorized"]),
    "layernorm_fp16_rows": ("control", "control", ["heuristics", "one-row-per-program"]),
    "gemm_tma_persistent": ("control", "control",
                                    ["tensor-descriptor", "persistent", "helper-jit"]),
    "flash_attention_fwd": ("control", "control", ["attention", "online-softmax", "2d-grid"]),
    "rmsnorm_blockptr_rows": ("control", "control", ["block-ptr", "rows-per-program"]),
    "cross_entropy_online": ("control", "control", ["online-softmax", "chunked-row", "gather"]),
    "linear_bias_gelu_autotune": ("trap", "trap:spill-off-hot-path",
                                  ["autotune", "grouped-order", "helper-jit", "fused-epilogue"]),
    "swiglu_2d": ("control", "control", ["2d-grid", "fp16", "fused-elementwise"]),
    "transpose_tiled": ("control", "control", ["2d-grid", "data-movement"]),
    "nchw_channel_affine": ("trap", "trap:per-element-divmod", ["1d-grid", "nchw", "fp16"]),
    "axpy_odd_length": ("trap", "trap:scalar-access-coalesced", ["1d-grid", "odd-length"]),
    "cast_fp32_bf16_int64": ("trap", "trap:int64-index", ["1d-grid", "dtype-cast"]),
    "gain_and_router_logits": ("trap", "trap:fma-side-dot", ["row-block", "fused-side-output"]),
    "gelu_residual": ("trap", "trap:reload-cached", ["1d-grid", "helper-jit"]),
    "mse_loss_persistent": ("trap", "trap:reduced-atomic-in-loop",
                                    ["persistent", "loss"]),
    "low_rank_expand": ("trap", "trap:unpipelined-one-iteration", ["2d-grid", "small-k"]),
    "gemm_colmajor_out": ("trap", "trap:epilogue-conversion", ["autotune", "col-major-out"]),
    "linear_gelu_residual_epilogue": ("control", "control", ["2d-grid", "fused-epilogue"]),
    "rowscale_strided_gain": ("trap", "trap:strided-scalar-side-load",
                                   ["one-row-per-program", "strided-side-input"]),
}


def all_causes() -> dict:
    merged = dict(CAUSES)
    for table in (fixes_memory.CAUSES, fixes_compute.CAUSES, fixes_parallel.CAUSES,
                  fixes_serial_host.CAUSES):
        overlap = merged.keys() & table.keys()
        if overlap:
            raise SystemExit(f"task ids listed twice: {sorted(overlap)}")
        merged.update(table)
    return merged


def apply_fix(text: str, pairs: list, task: str) -> str:
    fixed = text
    for old, new in pairs:
        if fixed.count(old) != 1:
            raise SystemExit(f"{task}: fix text {old!r} occurs {fixed.count(old)} times")
        fixed = fixed.replace(old, new)
    return fixed


def planted_lines(text: str, anchors: list, task: str) -> list[int]:
    return sorted({n for anchor in anchors for n in lines_of(text, anchor, task)})


def class_table() -> dict:
    table = {name: {"description": d, "rules": rules, "kernel_level": level}
             for name, (d, rules, level) in CLASSES.items()}
    for name, (d, rules) in {**TRAP_CLASSES, **CONTROL}.items():
        table[name] = {"description": d, "rules": rules, "kernel_level": True}
    return table


def main() -> None:
    entries = []
    for task, (cls, style, anchors, pairs) in all_causes().items():
        text = (TASKS / f"{task}.py").read_text()
        if pairs is not None:
            (TASKS / f"{task}__fix.py").write_text(apply_fix(text, pairs, task))
        entries.append({"id": task, "source": f"{task}.py", "fix": f"{task}__fix.py",
                        "cause_class": cls, "lines": planted_lines(text, anchors, task),
                        "kind": "cause", "style": style})
    for task, (kind, cls, style) in OTHERS.items():
        if (TASKS / f"{task}.py").exists():
            entries.append({"id": task, "source": f"{task}.py", "fix": None, "cause_class": cls,
                            "lines": [], "kind": kind, "style": style})
    (TASKS / "manifest.json").write_text(json.dumps({"classes": class_table(), "tasks": entries},
                                                    indent=1) + "\n")
    print(f"{len(entries)} tasks written to {TASKS / 'manifest.json'}")


if __name__ == "__main__":
    main()
