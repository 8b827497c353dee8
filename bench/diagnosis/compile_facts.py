#!/usr/bin/env python3
"""Compiler signature of each task and its fix, without a GPU: every launch of ModelNew is
captured at the task's real shapes (capture only, launches skipped), compiled for sm_90 as the
JIT would, and summarized from the IR and `ptxas -v`: registers, spill bytes, shared memory,
dot instructions (wgmma / mma.sync / fma), async copies, layout conversions, barriers.

It checks that a planted cause is present in the compile (and gone from the fix) by plain counts
of the compiler's output; it uses none of Strata's diagnosis. Usage:
  compile_facts.py [ID ...] [--json OUT]      (default: every task of the manifest)
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "agent"))
from task_io import TASKS, load_manifest, load_task  # noqa: E402

COUNTS = {
    "wgmma": r"wgmma\.mma_async", "mma_sync": r"\bmma\.sync", "fma_f32": r"\bfma\.rn\.f32",
    "cp_async": r"cp\.async\.c[ag]", "tma_loads": r"cp\.async\.bulk\.tensor",
    "bar_sync": r"\bbar\.sync|barrier\.sync", "atom_red": r"\b(?:atom|red)\.global",
    "ld_global_scalar": r"ld\.global(?:\.[a-z]+)*\.b(?:16|32)\b(?!.*\.v[248])",
}


def capture(path: Path) -> list[dict]:
    from strata_agent.launch_capture import LaunchCapture
    module = load_task(path)
    module.DEVICE = "cpu"
    with LaunchCapture(target="sm_90", launch=False) as cap:
        model = module.ModelNew(*module.get_init_inputs())
        model(*module.get_inputs())
    return [(k, module) for k in cap.kernels()]


def compile_record(record: dict, module) -> dict:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from strata_agent.spec import compile_arguments
    from triton.runtime.jit import JITFunction
    fn = getattr(module, record["kernel"])
    while not isinstance(fn, JITFunction):  # autotuner / heuristics wrap the JITFunction
        fn = fn.fn
    spec = record["spec"]
    signature, constexprs, attrs = compile_arguments(spec, fn.arg_names)
    compiled = triton.compile(ASTSource(fn, signature, constexprs, attrs),
                              target=GPUTarget("cuda", 90, 32), options=spec["options"])
    ptx, ttgir = compiled.asm["ptx"], compiled.asm["ttgir"]
    facts = {"kernel": record["kernel"], "launches": record.get("launches", 1),
             "grid": record.get("grid", spec.get("grid")), "num_warps": spec["options"].get("num_warps"),
             "num_stages": spec["options"].get("num_stages"), "shared": compiled.metadata.shared,
             "convert_layout": ttgir.count("ttg.convert_layout"),
             "local_alloc": ttgir.count("ttg.local_alloc")}
    facts.update({name: len(re.findall(rx, ptx)) for name, rx in COUNTS.items()})
    facts.update(ptxas_figures(ptx))
    return facts


def ptxas_figures(ptx: str) -> dict:
    from triton.backends.nvidia.compiler import get_ptxas
    ptxas = get_ptxas(90).path
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "k.ptx"
        src.write_text(ptx)
        log = subprocess.run([ptxas, "-v", "--gpu-name=sm_90a", str(src), "-o",
                              str(Path(tmp) / "k.cubin")], capture_output=True, text=True).stderr
    regs = re.search(r"Used (\d+) registers", log)
    spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
    return {"registers": int(regs.group(1)) if regs else None,
            "spill_store_bytes": int(spill.group(1)) if spill else 0,
            "spill_load_bytes": int(spill.group(2)) if spill else 0}


def facts_of(file_name: str) -> list[dict] | str:
    try:
        return [compile_record(r, m) for r, m in capture(TASKS / file_name)]
    except Exception as exc:  # reported, the other tasks still run
        return f"{type(exc).__name__}: {exc}"[:400]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    for task in load_manifest()["tasks"]:
        if args.ids and task["id"] not in args.ids:
            continue
        row = {"id": task["id"], "kind": task["kind"], "class": task["cause_class"],
               "task": facts_of(task["source"])}
        if task["fix"]:
            row["fix"] = facts_of(task["fix"])
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
