#!/usr/bin/env python3
"""Merges strata.bench result files of one suite into one, task by task.

    bench/gpu/merge_results.py OLDER.json NEWER.json [...] --out MERGED.json

A device session rarely has the time to run a whole suite again. Re-running some tasks and
merging keeps every figure traceable: a later file's task replaces an earlier one when the later
run finished it (status improved/no_gain/failed and every candidate judged), or when it measured
a win before a deadline cut it (status improved; marked `partial`). A "no_gain" with candidates a
deadline left "verified" but untimed is no verdict, and the earlier measurement stands. Each merged task
records the file, commit and date it was measured in (`measured_in`); the file lists its sources
(`merged_from`) and its summary is recomputed with the definitions of src/optimize/Outcome.cpp.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

SCHEMA = "strata.bench"
FINISHED_STATUSES = {"improved", "no_gain", "failed"}
UNJUDGED_STATES = {"proposed", "verified", "faster"}  # store/OptimizeRecords.h isFinished()


class MergeError(Exception):
    pass


def load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise MergeError(f"{path}: cannot read: {error}") from error
    if data.get("schema") != SCHEMA or not isinstance(data.get("tasks"), list):
        raise MergeError(f"{path}: not a {SCHEMA} results file")
    return data


def finished(task: dict[str, Any]) -> bool:
    if task.get("status") not in FINISHED_STATUSES:
        return False
    return not any(candidate.get("state") in UNJUDGED_STATES for candidate in task.get("candidates", []))


def speedup(task: dict[str, Any]) -> float | None:
    initial, best = task.get("initial_ms"), task.get("best_ms")
    return initial / best if initial and best and initial > 0 and best > 0 else None


def summary(tasks: list[dict[str, Any]]) -> dict[str, Any]:
    """As SuiteOutcome (src/optimize/Outcome.cpp): a task without both times counts 1.0x in
    geomean, median and the over-2x/5x counts; vs baselines over the tasks that have one."""
    speedups = [speedup(task) or 1.0 for task in tasks]
    versus = []
    for task in tasks:
        baselines = [task[key] for key in ("eager_ms", "compile_ms") if task.get(key)]
        if baselines and task.get("best_ms"):
            versus.append(min(baselines) / task["best_ms"])

    def geomean(values: list[float]) -> float:
        return math.exp(sum(math.log(value) for value in values) / len(values)) if values else 0.0

    return {"tasks": len(tasks), "geomean_speedup": geomean(speedups),
            "median_speedup": statistics.median(speedups) if speedups else 0.0,
            "over_2x": sum(value >= 2 for value in speedups), "over_5x": sum(value >= 5 for value in speedups),
            "failures": sum(task.get("status") == "failed" for task in tasks),
            "geomean_vs_best_baseline": geomean(versus)}


def merge(paths: list[Path]) -> dict[str, Any]:
    if not paths:
        raise MergeError("no results files given")
    files = [(path, load(path)) for path in paths]
    suites = {data.get("suite") for _, data in files}
    if len(suites) != 1:
        raise MergeError(f"results of different suites: {sorted(map(str, suites))}")
    # Milliseconds and roofline shares of two devices (an H100 and an H200) are not one suite run.
    for key in ("device", "backend", "target"):
        values = {str(data.get(key)) for _, data in files if data.get(key) is not None}
        if len(values) > 1:
            raise MergeError(f"results of different {key}s: {sorted(values)}")
    merged: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for path, data in files:
        source = {"file": path.name, "commit": data.get("commit"), "date": data.get("date")}
        for task in data["tasks"]:
            name = task.get("task")
            if not name:
                raise MergeError(f"{path}: a task without a name")
            complete = finished(task)
            if name not in merged:
                order.append(name)
            elif not complete and task.get("status") != "improved":
                continue  # no verdict here: the earlier measurement stands
            merged[name] = {**task, "measured_in": source, "partial": not complete}
    newest = files[-1][1]
    tasks = [merged[name] for name in sorted(order)]
    return {"schema": SCHEMA, "version": newest.get("version", 1), "suite": newest.get("suite"),
            "device": newest.get("device"), "driver": newest.get("driver"), "triton": newest.get("triton"),
            "torch": newest.get("torch"), "commit": newest.get("commit"), "date": newest.get("date"),
            "backend": newest.get("backend"), "target": newest.get("target"), "coverage": "merged",
            "merged_from": [{"file": path.name, "commit": data.get("commit"), "date": data.get("date"),
                             "coverage": data.get("coverage", "unknown"), "tasks": len(data["tasks"])}
                            for path, data in files],
            "summary": summary(tasks), "tasks": tasks}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", type=Path, help="strata.bench files, oldest first")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        result = merge(args.results)
    except MergeError as error:
        print(f"merge_results: {error}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    figures = result["summary"]
    print(f"{figures['tasks']} tasks: geomean {figures['geomean_speedup']:.2f}x, median {figures['median_speedup']:.2f}x, "
          f"over 2x {figures['over_2x']}, over 5x {figures['over_5x']}, failures {figures['failures']}, "
          f"vs best baseline {figures['geomean_vs_best_baseline']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
