"""On a GPU host: verify, time and profile every tuned-libs task (suites/tuned-libs) through the
real agent, and keep the replies that `strata-cli diagnose TASK.py --timing T --profile P` reads.

usage: python bench/corpus/measure_libs.py TASK_DIR OUT_DIR [--deadline S] [--cli STRATA_CLI]
                                          [--only NAME ...] [--candidates C ...] [--no-verify]

(--only, --candidates triton and --no-verify serve other KernelBench task folders too, e.g. the
replies of new bench/diagnosis tasks for `run_tasks.py --measurements`.)

OUT_DIR/replies/NAME.{verify,timing,profile}.json are the agent's results as `strata-cli verify|
time|profile --json` print them; with --cli (the host bundle's strata-cli) each task is also
diagnosed on the host with its launches run (`--run-task`, so the library's own autotuned configs
are the ones diagnosed) and its measurements: OUT_DIR/replies/NAME.diagnosis.json. OUT_DIR/
summary.json has one row per task. The deadline is checked before each task, so the call ends
inside the device's limit with what it measured.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "suites" / "tools"))
from agent_client import AgentClient, AgentError  # noqa: E402

CANDIDATES = ["triton", "eager", "compile"]


def measure(agent: AgentClient, task: Path, replies: Path, candidates: list[str] = CANDIDATES,
            verify: bool = True) -> dict:
    row: dict = {"task": task.stem}

    def call(kind: str, method: str, params: dict, timeout: float):
        started = time.monotonic()
        try:
            result = agent.call(method, {"task": str(task), **params}, timeout=timeout)
        except AgentError as error:
            row[f"{kind}_error"] = str(error)[:400]
            return None
        (replies / f"{task.stem}.{kind}.json").write_text(json.dumps(result))
        row[f"{kind}_s"] = round(time.monotonic() - started, 1)
        return result

    verdict = call("verify", "verify", {"timeout_s": 120}, 600) if verify else None
    row["verdict"] = verdict and verdict.get("verdict")
    if verdict:
        row["reasons"] = [reason["kind"] for reason in verdict.get("reasons", [])]
        # the library's tuned configs as its first candidate run launched them
        row["launched"] = [{"kernel": k["kernel"], "grid": k.get("grid"),
                            "constexprs": k.get("spec", {}).get("constexprs"),
                            "options": k.get("spec", {}).get("options")}
                           for k in verdict.get("kernels", [])]
    timing = call("timing", "time", {"candidates": candidates, "time_cap_s": 2, "timeout_s": 240}, 360)
    if timing:
        medians = {name: c.get("median_ms") for name, c in timing.get("candidates", {}).items()}
        row["median_ms"] = medians
        best_torch = min(filter(None, (medians.get("eager"), medians.get("compile"))), default=None)
        if best_torch and medians.get("triton"):
            row["speedup_vs_best_torch"] = round(best_torch / medians["triton"], 3)
        per = timing.get("roofline", {}).get("per_candidate", {}).get("triton", {})
        row["sol_pct"] = per.get("sol_pct")
        row["bound"] = per.get("bound")
    profile = call("profile", "profile", {"timeout_s": 240}, 360)
    if profile:
        ncu = profile.get("ncu", {})
        row["ncu_status"] = ncu.get("status")
        row["kernels"] = [k.get("kernel") for k in profile.get("kernels", [])]
    return row


def diagnose_on_host(cli: str, task: Path, replies: Path, row: dict) -> None:
    timing, profile = replies / f"{task.stem}.timing.json", replies / f"{task.stem}.profile.json"
    command = [cli, "diagnose", str(task), "--run-task", "--max-level", "3",
               "--json", str(replies / f"{task.stem}.diagnosis.json")]
    if timing.exists():
        command += ["--timing", str(timing)]
    if profile.exists():
        command += ["--profile", str(profile)]
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        row["diagnose_rc"] = done.returncode
        if done.returncode:
            row["diagnose_error"] = (done.stderr or done.stdout)[-400:]
    except subprocess.TimeoutExpired:
        row["diagnose_rc"] = "timeout"
    row["diagnose_s"] = round(time.monotonic() - started, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks")
    parser.add_argument("out")
    parser.add_argument("--deadline", type=float, default=480, help="seconds for the whole run")
    parser.add_argument("--cli", help="strata-cli to diagnose each task with on this host")
    parser.add_argument("--only", nargs="*", help="task names (file stems) to measure")
    parser.add_argument("--candidates", nargs="*", default=CANDIDATES)
    parser.add_argument("--no-verify", action="store_true")
    args = parser.parse_args(argv)
    end = time.monotonic() + args.deadline
    replies = Path(args.out) / "replies"
    replies.mkdir(parents=True, exist_ok=True)
    rows = []
    agent = AgentClient()
    try:
        tasks = sorted(Path(args.tasks).glob("*.py"))
        if args.only:
            tasks = [t for t in tasks if t.stem in args.only]
        for task in tasks:
            if time.monotonic() > end:
                rows.append({"task": task.stem, "skipped": "deadline"})
                continue
            row = measure(agent, task.resolve(), replies, args.candidates, not args.no_verify)
            if args.cli and time.monotonic() < end:
                diagnose_on_host(args.cli, task.resolve(), replies, row)
            rows.append(row)
            print(json.dumps(row), flush=True)
            (Path(args.out) / "summary.json").write_text(json.dumps(rows, indent=1))
    finally:
        agent.close()
    measured = sum(1 for row in rows if "timing_s" in row)
    print(f"{measured} of {len(rows)} tasks timed", file=sys.stderr)
    return 0 if measured else 1


if __name__ == "__main__":
    sys.exit(main())
