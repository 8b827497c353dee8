#!/usr/bin/env python3
"""Compares two strata.bench results files task by task: the same tasks, each with the same status
and the same candidate verdicts. Timings, paths and dates are not compared.

    compare_results.py REFERENCE.json OTHER.json

Candidates are compared as the sorted list of (provider, recipe, title, state), leaving out the
ones a cut left "interrupted": a resumed run proposes such a candidate again (as a new row, so
later in the list), so it appears once more in the run that was cut, with the same verdict as in
the reference.
Exit 0 when they agree, 1 with every difference printed.
"""
from __future__ import annotations

import json
import sys


def verdicts(task: dict) -> list[tuple]:
    return sorted((c.get("provider"), c.get("recipe"), c.get("title"), c.get("state"))
                  for c in task.get("candidates", []) if c.get("state") != "interrupted")


def main() -> int:
    reference, other = (json.load(open(path)) for path in sys.argv[1:3])
    ref_tasks = {task["task"]: task for task in reference["tasks"]}
    other_tasks = {task["task"]: task for task in other["tasks"]}
    problems = []
    if sorted(ref_tasks) != sorted(other_tasks):
        problems.append(f"tasks differ: {sorted(ref_tasks)} vs {sorted(other_tasks)}")
    for name in sorted(set(ref_tasks) & set(other_tasks)):
        a, b = ref_tasks[name], other_tasks[name]
        if a["status"] != b["status"]:
            problems.append(f"{name}: status {a['status']} vs {b['status']} ({b.get('failure', '')[:200]})")
        if verdicts(a) != verdicts(b):
            problems.append(f"{name}: candidates {verdicts(a)} vs {verdicts(b)}")
    for problem in problems:
        print("DIFF", problem)
    print(f"compared {len(ref_tasks)} tasks: {'equal' if not problems else f'{len(problems)} difference(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
