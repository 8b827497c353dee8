#!/usr/bin/env python3
"""Where a suite run's time went (#15 item 6), from a `strata.bench` results file.

Each task's `agent_s` holds the seconds its agent calls took per method (verify, time, profile,
...) and, per GPU-gate phase, the seconds waited for the gate (`<phase>_wait_s`) and held
(`<phase>_held_s`). This prints, over all tasks, the total and the median per task of each key,
the tasks' wall seconds, and the share of the summed wall time the GPU was held exclusively:
the part of a run that more jobs on one GPU cannot shorten.

    python3 bench/gpu/agent_seconds.py RESULTS.json [--json OUT]
"""
import argparse
import json
import statistics
import sys


def exclusive_phases(keys):
    """Gate phases held alone: the measured repetitions, ceilings and the profiled range.
    `checks` and `warmup` hold the gate shared (agent/strata_agent/gpu_gate.py)."""
    return sorted(k for k in keys if k.endswith("_held_s") and not k.startswith(("checks", "warmup")))


def summarize(results: dict) -> dict:
    tasks = results.get("tasks", [])
    per_key = {}
    for task in tasks:
        for key, seconds in (task.get("agent_s") or {}).items():
            if isinstance(seconds, (int, float)):
                per_key.setdefault(key, []).append(float(seconds))
    walls = [float(t["wall_s"]) for t in tasks if isinstance(t.get("wall_s"), (int, float))]
    keys = {key: {"total_s": round(sum(v), 1), "median_s": round(statistics.median(v), 2), "tasks": len(v)}
            for key, v in sorted(per_key.items())}
    exclusive = sum(keys[k]["total_s"] for k in exclusive_phases(keys))
    return {"tasks": len(tasks), "tasks_with_agent_s": sum(1 for t in tasks if t.get("agent_s")),
            "wall_total_s": round(sum(walls), 1), "wall_median_s": round(statistics.median(walls), 1) if walls else None,
            "exclusive_held_s": round(exclusive, 1),
            "exclusive_share_of_wall": round(exclusive / sum(walls), 3) if walls and sum(walls) > 0 else None,
            "keys": keys}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--json", help="also write the summary here")
    args = parser.parse_args(argv)
    try:
        with open(args.results) as handle:
            results = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"agent_seconds: cannot read {args.results}: {error}", file=sys.stderr)
        return 2
    summary = summarize(results)
    print(f"{summary['tasks']} tasks ({summary['tasks_with_agent_s']} with agent_s), "
          f"wall {summary['wall_total_s']} s summed, median {summary['wall_median_s']} s per task; "
          f"GPU held alone {summary['exclusive_held_s']} s ({summary['exclusive_share_of_wall']} of the summed wall)")
    print(f"{'key':28} {'total s':>9} {'median s':>9} {'tasks':>6}")
    for key, row in summary["keys"].items():
        print(f"{key:28} {row['total_s']:9.1f} {row['median_s']:9.2f} {row['tasks']:6d}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(summary, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
