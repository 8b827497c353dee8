#!/usr/bin/env python3
"""Scores `strata-cli diagnose TASK.py` on the task benchmark (bench/diagnosis/tasks), by half.

For each task of tasks/manifest.json it runs `strata-cli diagnose TASK.py --json -` (capture-only
launch capture on a CPU host: the forward runs once at the task's real shapes with every Triton
launch recorded and skipped, then each captured kernel is diagnosed), merges the kernels' ranked
findings (severity first, then each kernel's own rank) and scores them:

- cause: top-1 when the first finding's rule (for an L4 finding, the rule it examines) is one of
  the class's `rules` and sits on a planted line (any line for a kernel-level class); top-3 when
  one of the first three does;
- trap: passes when the first finding is not at high or critical severity;
- control: passes when no finding is at high or critical severity.

A cause counts only once its fix was timed on the GPU and is >= 1.15x faster (the committed
bench/results/diagnosis-task-fixes-*.json by date, or --fix-timings FILE ...). A cause whose fix gains less
is scored as `unvalidated`, with a trap's rule: its planted fact is present but cheap at these
shapes, so it must not be ranked first at high or critical severity. A cause never timed stays a
cause and is listed as `untimed`.

The dev and held-out halves (split.py) are reported separately. With --measurements DIR, the
saved replies DIR/<id>.timing.json and DIR/<id>.profile.json (where present) are passed as
--timing / --profile. Writes bench/results/diagnosis-tasks-<date>.json and a .md summary.

Usage: run_tasks.py [--cli PATH] [--only ID ...] [--split dev|heldout] [--jobs N]
                    [--measurements DIR] [--keep DIR] [--from-kept DIR] [--timeout S]
                    [--no-write | --name STEM] [-- EXTRA ARGS]
"""
from __future__ import annotations

import argparse
import datetime
import json
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
from split import split_of  # noqa: E402
from task_io import TASKS, load_manifest  # noqa: E402
from task_report import machine_info, summary_markdown, versions  # noqa: E402

VALIDATED_SPEEDUP = 1.15
SEVERITY = {"critical": 4, "high": 3, "medium": 2, "low": 1, "info": 0}
HIGH = {"critical", "high"}


def default_cli() -> str:
    for candidate in (REPO / "build" / "bin" / "strata-cli", Path("/work/main/build/bin/strata-cli")):
        if candidate.is_file():
            return str(candidate)
    return shutil.which("strata-cli") or "strata-cli"


def saved_replies(task: dict, args) -> dict[str, Path]:
    """The task's saved `time` / `profile` replies; a later --measurements folder's reply wins."""
    found = {}
    for kind in ("timing", "profile"):
        replies = [Path(d) / f"{task['id']}.{kind}.json" for d in args.measurements or []]
        replies = [r for r in replies if r.is_file()]
        if replies:
            found[kind] = replies[-1]
    return found


def diagnose(cli: str, task: dict, args) -> tuple[dict | None, str, float]:
    if args.from_kept:  # score saved outputs of an earlier --keep run instead of diagnosing
        kept = Path(args.from_kept) / f"{task['id']}.json"
        try:
            return json.loads(kept.read_text()), "", 0.0
        except (OSError, json.JSONDecodeError) as error:
            return None, f"no kept output: {error}", 0.0
    command = [cli, "diagnose", str(TASKS / task["source"]), "--json", "-"]
    for kind, reply in saved_replies(task, args).items():
        command += [f"--{kind}", str(reply)]
    command += args.extra
    started = time.monotonic()
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {args.timeout} s", time.monotonic() - started
    elapsed = time.monotonic() - started
    if args.keep:
        keep = Path(args.keep)
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"{task['id']}.json").write_text(run.stdout)
        (keep / f"{task['id']}.stderr.txt").write_text(run.stderr)
    try:
        return json.loads(run.stdout), "" if run.returncode == 0 else run.stderr[-400:], elapsed
    except json.JSONDecodeError:
        return None, f"exit {run.returncode}: {(run.stderr or run.stdout).strip()[-400:]}", elapsed


def committed_fix_timings() -> list[Path]:
    return sorted((REPO / "bench" / "results").glob("diagnosis-task-fixes-*.json"))


def fix_speedups(paths: list[Path]) -> dict[str, float]:
    """Task id -> measured fix speedup, from measure_fixes.py results (read in the order given,
    by date for the committed ones, so a re-measured task replaces its old figure)."""
    speedups = {}
    for path in paths:
        for entry in json.loads(path.read_text()).get("results", []):
            if entry.get("kind") == "cause" and entry.get("correct") and entry.get("speedup"):
                speedups[entry["task"]] = float(entry["speedup"])
    return speedups


def scored_kind(task: dict, speedups: dict[str, float]) -> str:
    if task["kind"] != "cause" or task["id"] not in speedups:
        return task["kind"]
    return "cause" if speedups[task["id"]] >= VALIDATED_SPEEDUP else "unvalidated"


def merged_ranking(result: dict) -> list[dict]:
    """Every kernel's ranked findings in one list, each kernel's own order kept: all kernels'
    first findings (by severity among themselves), then their second ones, and so on. The
    diagnosis orders one kernel's findings (with measurements a medium mechanism comes before a
    high symptom); the merge must not undo that."""
    merged = []
    for kernel in result.get("kernels", []):
        name = kernel.get("launch", {}).get("kernel") or kernel.get("diagnosis", {}).get("kernel")
        for entry in kernel.get("diagnosis", {}).get("ranking", []):
            merged.append({"kernel": name, "rule": entry.get("rule"),
                           "examines": entry.get("examines"), "line": entry.get("line"),
                           "severity": entry.get("severity"), "status": entry.get("status"),
                           "title": entry.get("title"), "rank": entry.get("rank", 0)})
    merged.sort(key=lambda e: (e["rank"], -SEVERITY.get(e["severity"], 0)))
    return merged


def names_cause(entry: dict, cls: dict, lines: list[int]) -> bool:
    rule = entry.get("examines") or entry["rule"]
    return rule in cls["rules"] and (cls.get("kernel_level") or entry.get("line") in lines)


def score(task: dict, cls: dict, ranking: list[dict]) -> dict:
    top = ranking[0] if ranking else None
    if task["kind"] == "unvalidated":
        hits = [names_cause(e, cls, task["lines"]) for e in ranking]
        return {"pass": not (top and top["severity"] in HIGH), "fact_reported": any(hits)}
    if task["kind"] == "cause":
        hits = [names_cause(e, cls, task["lines"]) for e in ranking]
        return {"top1": bool(hits[:1] and hits[0]), "top3": any(hits[:3]), "found": any(hits)}
    if task["kind"] == "trap":
        fact = any((e.get("examines") or e["rule"]) in cls["rules"] for e in ranking)
        return {"pass": not (top and top["severity"] in HIGH), "fact_reported": fact}
    return {"pass": not any(e["severity"] in HIGH for e in ranking)}


def run_one(cli: str, task: dict, classes: dict, args) -> dict:
    task = dict(task, planted_kind=task["kind"], kind=scored_kind(task, args.speedups))
    result, error, elapsed = diagnose(cli, task, args)
    ranking = merged_ranking(result) if result else []
    row = {"id": task["id"], "split": split_of(task["id"]), "kind": task["kind"],
           "cause_class": task["cause_class"], "lines": task["lines"], "seconds": round(elapsed, 1),
           "fix_speedup": args.speedups.get(task["id"]),
           "measured_with": sorted(saved_replies(task, args)),
           "kernels": len(result.get("kernels", [])) if result else 0,
           "capture": result.get("capture") if result else None,
           "capture_errors": (result or {}).get("capture_errors", []),
           "failures": (result or {}).get("failures", []), "error": error,
           "top": ranking[:5]}
    row.update(score(task, classes[task["cause_class"]], ranking))
    return row


def half_summary(rows: list[dict]) -> dict:
    causes = [r for r in rows if r["kind"] == "cause"]
    traps = [r for r in rows if r["kind"] == "trap"]
    controls = [r for r in rows if r["kind"] == "control"]
    unvalidated = [r for r in rows if r["kind"] == "unvalidated"]
    ratio = lambda n, d: round(n / d, 3) if d else None  # noqa: E731
    per_class: dict[str, list[int]] = {}
    for r in causes:
        per_class.setdefault(r["cause_class"], [0, 0])
        per_class[r["cause_class"]][0] += r["top1"]
        per_class[r["cause_class"]][1] += 1
    return {"causes": len(causes), "top1": sum(r["top1"] for r in causes),
            "top1_rate": ratio(sum(r["top1"] for r in causes), len(causes)),
            "top3": sum(r["top3"] for r in causes), "found": sum(r["found"] for r in causes),
            "traps": len(traps), "traps_pass": sum(r["pass"] for r in traps),
            "controls": len(controls), "controls_pass": sum(r["pass"] for r in controls),
            "unvalidated": len(unvalidated),
            "unvalidated_pass": sum(r["pass"] for r in unvalidated),
            "untimed_causes": sorted(r["id"] for r in causes if r.get("fix_speedup") is None),
            "with_measurements": sum(1 for r in rows if r.get("measured_with")),
            "causes_with_measurements": sum(1 for r in causes if r.get("measured_with")),
            "errors": sum(1 for r in rows if r["error"] or r["failures"] or r["capture_errors"]),
            "per_class_top1": {k: f"{v[0]}/{v[1]}" for k, v in sorted(per_class.items())}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=default_cli())
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--split", choices=["dev", "heldout"])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--measurements", nargs="*", help="folders of saved replies")
    parser.add_argument("--fix-timings", type=Path, nargs="*", default=committed_fix_timings(),
                        help="measure_fixes.py results whose speedups validate the causes")
    parser.add_argument("--keep")
    parser.add_argument("--from-kept", help="score the outputs an earlier --keep run saved in this folder")
    parser.add_argument("--timeout", type=int, default=1800)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--name", help="results file stem under bench/results (default "
                                       "diagnosis-tasks-<date>[-measured]); never overwrites a committed one")
    parser.add_argument("extra", nargs="*", help="arguments after -- go to strata-cli diagnose")
    args = parser.parse_args()
    manifest = load_manifest()
    args.speedups = fix_speedups(args.fix_timings)
    tasks = [t for t in manifest["tasks"] if (not args.only or t["id"] in args.only)
             and (not args.split or split_of(t["id"]) == args.split)]
    started = time.time()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_one, args.cli, t, manifest["classes"], args) for t in tasks]
        rows = []
        for future in futures:
            row = future.result()
            rows.append(row)
            print_row(row)
    halves = {half: half_summary([r for r in rows if r["split"] == half])
              for half in ("dev", "heldout")}
    result = {"schema": "strata.diagnosis-tasks", "version": 1,
              "date": datetime.date.today().isoformat(), "machine": machine_info(),
              "versions": versions(args.cli), "mode": "measured" if args.measurements else "static",
              "cli_arguments": ["diagnose", "TASK.py", "--json", "-"] + args.extra,
              "fix_timings": [str(p.relative_to(REPO)) if p.is_relative_to(REPO) else str(p)
                              for p in args.fix_timings],
              "validated_speedup": VALIDATED_SPEEDUP, "measurements": args.measurements or [],
              "seconds": round(time.time() - started, 1), "halves": halves, "tasks": rows}
    if args.from_kept:
        result["scored_from_kept"] = args.from_kept
    for half, summary in halves.items():
        print(f"{half:8} top-1 {summary['top1']}/{summary['causes']}, top-3 {summary['top3']}, "
              f"traps {summary['traps_pass']}/{summary['traps']}, controls "
              f"{summary['controls_pass']}/{summary['controls']}, unvalidated causes "
              f"{summary['unvalidated_pass']}/{summary['unvalidated']} below high, "
              f"errors {summary['errors']}")
    if not args.no_write:
        out = REPO / "bench" / "results" / f"diagnosis-tasks-{result['date']}"
        if args.measurements:
            out = out.with_name(out.name + "-measured")
        if args.name:
            out = out.with_name(args.name)
        out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
        out.with_suffix(".md").write_text(summary_markdown(result, manifest))
        print(f"-> {out.with_suffix('.json')} and .md")
    return 0


def print_row(row: dict) -> None:
    top = row["top"][0] if row["top"] else None
    first = (f"{top['severity']:8} {top.get('examines') or top['rule']} @{top['line']}"
             if top else "(no finding)")
    verdict = ("top1" if row.get("top1") else "top3" if row.get("top3") else "miss") \
        if row["kind"] == "cause" else ("pass" if row["pass"] else "FAIL")
    print(f"{row['split']:7} {row['kind']:7} {row['id']:34} {verdict:5} {first} "
          f"({row['seconds']} s){' ERROR ' + row['error'][:120] if row['error'] else ''}",
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
