"""Verifies every task of a suite through the real agent and prints a table.

    PYTHONPATH=agent .venv/bin/python suites/tools/check_suite.py suites/hopper-core
    .venv/bin/python suites/tools/check_suite.py suites/hopper-core --only matmul --gpu

By default each task runs under Triton's CPU interpreter (`interpret: true`, so the agent sets
TRITON_INTERPRET=1 and applies the task's `interpret_shapes`): first `run_task` (one forward,
launches captured), then `verify`. `--gpu` runs them on the GPU at the real shapes. Exit status
1 when any task does not pass, so CI can use it.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agent_client import AgentClient, AgentError  # noqa: E402


def task_files(folder: Path, only: list[str]) -> list[Path]:
    files = sorted(path for path in folder.glob("*.py") if not path.name.startswith("_"))
    if only:
        files = [path for path in files if any(word in path.stem for word in only)]
    return files


def check_task(agent: AgentClient, path: Path, interpret: bool, timeout_s: float,
               timed: bool = False) -> dict:
    """One row of the table: verdict, short reasons, launches, seconds (and timings on a GPU)."""
    params = {"task": str(path), "interpret": interpret, "timeout_s": timeout_s}
    started = time.monotonic()
    row = {"task": path.stem, "verdict": "error", "reasons": "", "launches": "", "seconds": 0.0}
    try:
        if interpret:  # on a GPU, verify's own first run already captures the launches
            captured = agent.call("run_task", params, timeout=timeout_s + 60)
            row["launches"] = str(captured.get("launch_count", ""))
        result = agent.call("verify", params, timeout=timeout_s * 4 + 60)
        row["verdict"] = result["verdict"]
        row["reasons"] = "; ".join(f"{reason['kind']}: {reason.get('message', '')[:120]}"
                                   for reason in result.get("reasons", []))
        row["shapes"] = len(result.get("shapes", []))
        errors = [output.get("rel_error", 0.0) for check in result.get("checks", [])
                  for output in check.get("outputs", [])]
        row["max_rel_error"] = max(errors) if errors else None
        if timed and row["verdict"] == "pass":
            row.update(time_task(agent, path, timeout_s))
    except AgentError as error:
        row["reasons"] = str(error)[:300]
    row["seconds"] = round(time.monotonic() - started, 1)
    return row


def time_task(agent: AgentClient, path: Path, timeout_s: float) -> dict:
    """Median milliseconds of the reference (eager) and the candidate, and the candidate's SOL."""
    result = agent.call("time", {"task": str(path), "candidates": ["triton", "eager"],
                                 "time_cap_s": 1, "min_reps": 10, "timeout_s": timeout_s},
                        timeout=timeout_s + 60)
    candidates = result.get("candidates", {})
    per = result.get("roofline", {}).get("per_candidate", {}).get("triton", {})
    return {"eager_ms": candidates.get("eager", {}).get("median_ms"),
            "triton_ms": candidates.get("triton", {}).get("median_ms"),
            "sol_pct": per.get("sol_pct"), "bound": per.get("bound")}


def print_table(rows: list[dict]) -> None:
    header = f"| {'task':<28} | verdict | launches | shapes | max rel err | seconds | reasons"
    print(header)
    print("|" + "-" * 30 + "|---------|----------|--------|-------------|---------|--------")
    for row in rows:
        error = row.get("max_rel_error")
        error_text = f"{error:.2e}" if isinstance(error, float) else ""
        print(f"| {row['task']:<28} | {row['verdict']:<7} | {row['launches']:>8} | "
              f"{row.get('shapes', ''):>6} | {error_text:>11} | {row['seconds']:>7} | "
              f"{row['reasons']}")
        if "eager_ms" in row:
            print(f"|   eager {row['eager_ms']} ms, triton {row['triton_ms']} ms, "
                  f"SOL {row['sol_pct']}% ({row['bound']}-bound)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path, help="folder of task files")
    parser.add_argument("--only", nargs="*", default=[], help="substrings of task names")
    parser.add_argument("--gpu", action="store_true", help="run on the GPU, not the interpreter")
    parser.add_argument("--time", action="store_true",
                        help="with --gpu: also time eager and Triton (agent method `time`)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per agent call")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    args = parser.parse_args(argv)
    if not args.suite.is_dir():
        parser.error(f"{args.suite}: not a folder")
    files = task_files(args.suite, args.only)
    if not files:
        parser.error(f"{args.suite}: no task files match")
    rows = []
    with AgentClient() as agent:
        for path in files:
            row = check_task(agent, path, not args.gpu, args.timeout,
                             args.gpu and args.time)
            rows.append(row)
            print(f"{row['task']}: {row['verdict']} ({row['seconds']} s) {row['reasons']}",
                  file=sys.stderr, flush=True)
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0 if all(row["verdict"] == "pass" for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
