#!/usr/bin/env python3
"""Times every planted-cause task of bench/diagnosis/tasks against its fix on a CUDA host.

For each cause task: ModelNew of the task and of <id>__fix.py at the task's real shapes, timed
with triton.testing.do_bench (warmup, median of its repetitions, >= 20), the fix checked against
Model. Traps and controls have no fix: their ModelNew is timed and checked alone, so the claim
that they already run near their bound can be read off `achieved` (GB/s and TFLOP/s from the
task's STRATA_TASK bytes and flops). Writes {date, commit, device, torch, triton, results:
[{task, kind, original_ms, fix_ms, speedup, correct, rel_error, achieved, fix_achieved}]} as JSON.
The commit is `--commit`, else $STRATA_COMMIT, else `git rev-parse HEAD` (the GPU host's copy of
the tree has no .git: measure_on_gpu.sh passes it).

Usage: measure_fixes.py OUT.json [--only ID ...] [--kinds cause trap control] [--rep MS] [--commit SHA]
Needs torch with CUDA and triton only; exits with a message (status 2) on a host without CUDA.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from task_io import TASKS, load_manifest, load_task, rel_error, tolerance  # noqa: E402


def time_model(module, inputs, rep_ms: int) -> float:
    import torch
    from triton.testing import do_bench
    model = module.ModelNew(*module.get_init_inputs())
    with torch.no_grad():
        model(*inputs)  # compile / autotune outside the timing
        torch.cuda.synchronize()
        return float(do_bench(lambda: model(*inputs), warmup=25, rep=rep_ms, return_mode="median"))


def achieved(module, ms: float) -> dict:
    """GB/s and TFLOP/s of one forward from the task's own byte and FLOP counts."""
    task = getattr(module, "STRATA_TASK", {}) or {}
    names = {k: v for k, v in vars(module).items() if isinstance(v, (int, float))}
    rates = {}
    for key, unit, scale in (("bytes", "gbps", 1e9), ("flops", "tflops", 1e12)):
        try:
            rates[unit] = round(float(eval(str(task[key]), {}, names)) / (ms * 1e-3) / scale, 2)
        except Exception:  # a missing or unreadable count is left out
            pass
    return rates


def measure(task: dict, rep_ms: int) -> dict:
    import torch
    orig = load_task(TASKS / task["source"])
    fix = load_task(TASKS / task["fix"]) if task["fix"] else None
    torch.manual_seed(0)
    inputs = orig.get_inputs()
    row = {"task": task["id"], "kind": task["kind"], "cause_class": task["cause_class"]}
    try:
        with torch.no_grad():
            ref = orig.Model(*orig.get_init_inputs())(*inputs)
            base = orig.ModelNew(*orig.get_init_inputs())(*inputs)
            got = fix.ModelNew(*fix.get_init_inputs())(*inputs) if fix else base
        row["rel_error"] = rel_error(ref, got)
        row["original_rel_error"] = rel_error(ref, base)
        row["correct"] = row["rel_error"] <= tolerance(orig)
        del ref, base, got
        row["original_ms"] = time_model(orig, inputs, rep_ms)
        row["achieved"] = achieved(orig, row["original_ms"])
        if fix:
            row["fix_ms"] = time_model(fix, inputs, rep_ms)
            row["fix_achieved"] = achieved(orig, row["fix_ms"])
            row["speedup"] = row["original_ms"] / row["fix_ms"]
    except Exception as exc:  # a task that fails is reported, the others still run
        row["error"] = f"{type(exc).__name__}: {exc}"[:500]
        row["correct"] = False
    finally:
        del inputs
        torch.cuda.empty_cache()
    return row


def source_commit(given: str | None) -> str:
    if given:
        return given
    if os.environ.get("STRATA_COMMIT"):
        return os.environ["STRATA_COMMIT"]
    head = subprocess.run(["git", "-C", str(HERE), "rev-parse", "HEAD"], capture_output=True, text=True)
    return head.stdout.strip() if head.returncode == 0 else "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--kinds", nargs="*", default=["cause", "trap", "control"])
    parser.add_argument("--rep", type=int, default=100, help="do_bench repetition time, ms")
    parser.add_argument("--commit", help="the source commit measured (default: $STRATA_COMMIT or git)")
    args = parser.parse_args()
    commit = source_commit(args.commit)
    started_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    try:
        import torch
        import triton
    except ImportError as exc:
        print(f"measure_fixes.py needs torch and triton: {exc}", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("measure_fixes.py needs a CUDA GPU (torch.cuda.is_available() is False); "
              "run it on the H200 host", file=sys.stderr)
        return 2
    tasks = [t for t in load_manifest()["tasks"] if t["kind"] in args.kinds
             and (not args.only or t["id"] in args.only)]
    rows, start = [], time.time()

    def write(complete: bool) -> dict:
        # Written after every task: a run cut by the device's deadline keeps what it measured.
        result = {"date": started_at, "commit": commit,
                  "device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                  "triton": triton.__version__, "seconds": round(time.time() - start, 1),
                  "complete": complete, "results": rows}
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
        return result

    for task in tasks:
        row = measure(task, args.rep)
        rows.append(row)
        write(False)
        print(f"{row['task']:32} {row['kind']:7} {row.get('original_ms', float('nan')):9.4f} ms "
              f"{row.get('fix_ms', float('nan')):9.4f} ms  x{row.get('speedup', float('nan')):6.2f}"
              f"  correct={row['correct']} {row.get('error', '')}", flush=True)
    result = write(True)
    print(f"{len(rows)} tasks in {result['seconds']} s -> {args.out}")
    return 0 if all(r["correct"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
