#!/usr/bin/env python3
"""Times task files' ModelNew against each other on a GPU host, interleaved in one timing call
(the agent's `time` method with `compare_with`), without the host bundle: for a recipe's
candidate written by `strata-cli optimize --interpret` on a machine without a GPU, timed beside
the task it came from. Each file must be a whole task (Model, ModelNew, get_inputs, ...).

    python3 bench/gpu/time_task_files.py ORIGINAL.py CANDIDATE.py [...] [--verify] --out OUT.json

Prints each file's median (ms, 95% CI) and its speedup over the first file; with --verify,
first checks every candidate against the float64 reference (the loop's verify) and leaves a
failing one out of the timing.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "agent"))


def quiet(*_args, **_kwargs):
    pass


def verified(paths: list[str]) -> tuple[list[str], dict]:
    from strata_agent.task_loader import load_task
    from strata_agent.verify import verify_task
    kept, verdicts = [paths[0]], {}
    for path in paths[1:]:
        try:
            result = verify_task(load_task(path), {}, quiet)
            verdicts[path] = {"verdict": result["verdict"], "reasons": result["reasons"][:3]}
        except Exception as error:  # a candidate that cannot even load is reported, not fatal
            verdicts[path] = {"verdict": "fail", "reasons": [f"{type(error).__name__}: {error}"]}
        if verdicts[path]["verdict"] == "pass":
            kept.append(path)
    return kept, verdicts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--out", required=True)
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--time-cap", type=float, default=2.0)
    parser.add_argument("--no-compile", action="store_true", help="leave torch.compile out (its warm-up is long)")
    parser.add_argument("--eager", action="store_true", help="time the first file's Model (eager PyTorch) beside them")
    args = parser.parse_args(argv)
    missing = [path for path in args.files if not os.path.isfile(path)]
    if missing:
        print(f"time_task_files: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    from strata_agent.backends.nvidia.task_time import time_tasks
    files, verdicts = verified(args.files) if args.verify else (args.files, {})
    try:
        baselines = ([] if args.no_compile else ["compile"]) + (["eager"] if args.eager else [])
        result = time_tasks(files, {"candidates": ["triton", *baselines], "roofline": False,
                                    "time_cap_s": args.time_cap}, quiet)
    except RuntimeError as error:  # no GPU here, or CUDA failed: say so, no traceback
        print(f"time_task_files: cannot time {', '.join(files)}: {error}", file=sys.stderr)
        return 4
    candidates = result["candidates"]
    names = [f"triton:{Path(path).stem}" if len(files) > 1 else "triton" for path in files]
    first = candidates.get(names[0], {}).get("median_ms")
    rows = []
    for path, name in zip(files, names):
        stats = candidates.get(name, {})
        median = stats.get("median_ms")
        rows.append({"file": path, "median_ms": median, "median_ci_rel": stats.get("median_ci_rel"),
                     "speedup_vs_first": first / median if first and median else None,
                     "error": stats.get("error")})
        print(f"{Path(path).name:40} {median or float('nan'):9.4f} ms  "
              f"{(first / median) if first and median else float('nan'):5.2f}x  {stats.get('error') or ''}")
    compile_ms = candidates.get("compile", {}).get("median_ms")
    eager_ms = candidates.get("eager", {}).get("median_ms")
    print(f"{'torch.compile':40} {compile_ms or float('nan'):9.4f} ms")
    if args.eager:
        print(f"{'eager':40} {eager_ms or float('nan'):9.4f} ms  "
              f"{(first / eager_ms) if first and eager_ms else float('nan'):5.2f}x")
    with open(args.out, "w") as handle:
        json.dump({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                   "device": result.get("device"), "versions": result.get("versions"),
                   "commit": os.environ.get("STRATA_GIT_COMMIT", "unknown"), "rows": rows,
                   "compile_ms": compile_ms, "eager_ms": eager_ms, "verdicts": verdicts, "stop_reason": result.get("stop_reason")},
                  handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
