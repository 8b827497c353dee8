#!/usr/bin/env python3
"""Writes the held-out task benchmark's fixed siblings (tasks/<id>__fix.py) and tasks/manifest.json.

Each planted task is listed once here: its cause class, the source text of the planted lines
(anchors: the manifest's `lines` are found from them, so editing a task cannot silently leave the
lines stale) and the edit that removes the cause (FIX pairs applied to the task's text). Anchors
live here, not as comments in the task files, because comments would be visible to the diagnoser.
"""
from __future__ import annotations

import json
from pathlib import Path

TASKS = Path(__file__).resolve().parent / "tasks"

CLASSES = {
    "alignment": "a pointer or stride not known 16-byte divisible forces scalar accesses",
    "runtime-unit-stride": "a run-time stride that is 1 at launch hides contiguity",
    "fma-fallback": "a dot lowered to FMAs (ieee fp32) instead of tensor cores",
    "mma-v2-not-wgmma": "a tl.dot whose tile or warps give mma.sync instead of wgmma on sm_90",
    "no-pipelining": "dot-loop loads not software-pipelined (num_stages=1)",
    "register-spill": "a tile too large for the register file of the CTA: local-memory spills",
    "tiny-tiles": "tiles too small for the CTA: idle threads, many tiny programs",
    "low-occupancy": "registers per thread limit resident warps",
    "layout-conversion": "layout conversions through shared memory in the hot path",
    "uncoalesced": "consecutive lanes access addresses far apart",
    "control": "a tuned kernel with no real cause",
}

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
        ["num_warps=8, num_stages=1)", "for k in range(0, tl.cdiv(K, BLOCK_K)):"],
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

# id: (kind, class, style tags)
OTHERS = {
    "control_softmax_fp16": ("control", "control", ["one-row-per-program", "masks-other"]),
    "control_matmul_fp16": ("control", "control", ["autotune", "grouped-order", "pipelined"]),
    "control_add_fp32": ("control", "control", ["1d-grid", "vectorized"]),
}


def line_of(text: str, anchor: str, task: str) -> int:
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if anchor in line]
    if len(hits) != 1:
        raise SystemExit(f"{task}: anchor {anchor!r} found on lines {hits}, need exactly one")
    return hits[0]


def main() -> None:
    entries = []
    for task, (cls, style, anchors, pairs) in CAUSES.items():
        text = (TASKS / f"{task}.py").read_text()
        if pairs is not None:
            fixed = text
            for old, new in pairs:
                if fixed.count(old) != 1:
                    raise SystemExit(f"{task}: fix text {old!r} occurs {fixed.count(old)} times")
                fixed = fixed.replace(old, new)
            (TASKS / f"{task}__fix.py").write_text(fixed)
        entries.append({"id": task, "source": f"{task}.py", "fix": f"{task}__fix.py",
                        "cause_class": cls, "lines": sorted(line_of(text, a, task) for a in anchors),
                        "kind": "cause", "style": style})
    for task, (kind, cls, style) in OTHERS.items():
        if (TASKS / f"{task}.py").exists():
            entries.append({"id": task, "source": f"{task}.py", "fix": None, "cause_class": cls,
                            "lines": [], "kind": kind, "style": style})
    classes = {name: {"description": d, "rules": []} for name, d in CLASSES.items()}
    (TASKS / "manifest.json").write_text(json.dumps({"classes": classes, "tasks": entries},
                                                    indent=1) + "\n")
    print(f"{len(entries)} tasks written to {TASKS / 'manifest.json'}")


if __name__ == "__main__":
    main()
