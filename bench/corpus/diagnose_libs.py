#!/usr/bin/env python3
"""Diagnoses every tuned-libs task (suites/tuned-libs, written at run time) on this CPU machine
with the H200 `time` / `profile` replies that bench/corpus/measure_libs.py took for it, and lists
every high or critical finding for review. The libraries are tuned: a high finding is either a
real issue (say why, with its evidence) or a false positive to fix.

usage: diagnose_libs.py TASK_DIR REPLY_DIR [REPLY_DIR ...] [--python CORPUS_PY] [--cli STRATA_CLI]
                        [--jobs N] [--out STEM]

The launches are captured capture-only (nothing runs: flag_gems imports through
bench/corpus/site without a driver), so the kernels are the library's own at the task's shapes;
a tuner's first config stands in for the one the H200 picked. Writes STEM.json and STEM.md
(default bench/results/tuned-libs-diagnosis-<date>).
"""
from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench" / "diagnosis"))
sys.path.insert(0, str(REPO / "bench" / "corpus"))
from run import corpus_env  # noqa: E402
from run_tasks import HIGH, default_cli, merged_ranking  # noqa: E402
from task_report import machine_info, versions  # noqa: E402


def newest_reply(folders: list[Path], name: str, kind: str) -> Path | None:
    found = [f / "replies" / f"{name}.{kind}.json" for f in folders]
    found = [p for p in found if p.is_file()]
    return found[-1] if found else None


def measured_row(folders: list[Path], name: str) -> dict:
    """The library's speed on the H200 from the newest summary that timed it."""
    row: dict = {}
    for folder in folders:
        summary = folder / "summary.json"
        if summary.is_file():
            for entry in json.loads(summary.read_text()):
                if entry.get("task") == name and "timing_s" in entry:
                    row = {k: entry.get(k) for k in ("median_ms", "speedup_vs_best_torch", "sol_pct", "bound")}
    return row


def diagnose(task: Path, folders: list[Path], args) -> dict:
    command = [args.cli, "diagnose", str(task), "--json", "-"]
    for kind in ("timing", "profile"):
        reply = newest_reply(folders, task.stem, kind)
        if reply:
            command += [f"--{kind}", str(reply)]
    env = corpus_env(args.python)
    started = time.monotonic()
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout, env=env)
        result = json.loads(run.stdout) if run.stdout.strip() else None
        error = "" if run.returncode == 0 else (run.stderr or run.stdout)[-400:]
    except subprocess.TimeoutExpired:
        result, error = None, f"timed out after {args.timeout} s"
    except json.JSONDecodeError:
        result, error = None, (run.stderr or run.stdout)[-400:]
    ranking = merged_ranking(result) if result else []
    return {"task": task.stem, "seconds": round(time.monotonic() - started, 1), "error": error,
            "measured_with": [k for k in ("timing", "profile") if newest_reply(folders, task.stem, k)],
            "kernels": [k.get("launch", {}).get("kernel") for k in (result or {}).get("kernels", [])],
            "h200": measured_row(folders, task.stem), "top": ranking[:3],
            "high": [e for e in ranking if e["severity"] in HIGH]}


def markdown(result: dict) -> str:
    lines = [f"# tuned-libs diagnosed with H200 replies, {result['date']}", "",
             f"`strata-cli diagnose TASK.py --timing T --profile P` (capture-only on "
             f"{result['machine'].get('cpu')}), commit {result['versions'].get('commit')}; replies from "
             f"{', '.join(result['reply_dirs'])}. {result['with_high']} of {len(result['tasks'])} tasks have a "
             "high or critical finding.", "",
             "| task | vs best torch | SOL % | first finding | high findings |", "|---|---|---|---|---|"]
    for row in result["tasks"]:
        top = row["top"][0] if row["top"] else None
        first = f"{top['severity']} {top.get('examines') or top['rule']} (line {top['line']})" if top else \
            ("error: " + row["error"][:60].replace("|", "/") if row["error"] else "(none)")
        high = "; ".join(f"{e.get('examines') or e['rule']} @{e['line']}" for e in row["high"]) or "-"
        speed = row["h200"].get("speedup_vs_best_torch")
        sol = row["h200"].get("sol_pct")
        lines.append(f"| {row['task']} | {speed if speed is not None else '-'} | "
                     f"{round(sol) if sol is not None else '-'} | {first} | {high} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", type=Path)
    parser.add_argument("replies", type=Path, nargs="+")
    parser.add_argument("--python", default="/work/venv-corpus/bin/python")
    parser.add_argument("--cli", default=default_cli())
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    tasks = sorted(args.tasks.glob("*.py"))
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda t: diagnose(t, args.replies, args), tasks))
    for row in rows:
        print(f"{row['task']:32} {len(row['high'])} high  {row['error'][:100]}", flush=True)
    date = datetime.date.today().isoformat()
    result = {"schema": "strata.tuned-libs-diagnosis", "version": 1, "date": date, "machine": machine_info(),
              "versions": versions(args.cli), "reply_dirs": [str(d) for d in args.replies],
              "with_high": sum(1 for r in rows if r["high"]), "tasks": rows}
    out = args.out or REPO / "bench" / "results" / f"tuned-libs-diagnosis-{date}"
    out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
    out.with_suffix(".md").write_text(markdown(result))
    print(f"-> {out.with_suffix('.json')} and .md; {result['with_high']} of {len(rows)} tasks with a high finding")
    return 0 if not any(r["error"] and not r["top"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
