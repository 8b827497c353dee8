#!/usr/bin/env python3
"""Compile latency (#19): the matmul sample, every stage and pass dump, N times through the
agent's JSON-RPC stdio protocol, with the warm spare worker (default) and without it
(STRATA_AGENT_WARM_WORKER=0). Prints first/median/min per mode and stores a results JSON.

    .venv/bin/python bench/compile_latency/run.py [--runs 5] [--python .venv/bin/python]
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "suites" / "samples" / "matmul.py"
SPEC = REPO / "suites" / "samples" / "matmul.default.spec.json"
TARGET_S = 3.0
MODES = {"warm": "1", "cold": "0"}


class Agent:
    """`python -m strata_agent --stdio` started as Strata starts it (PYTHONPATH=<repo>/agent)."""

    def __init__(self, python: str, warm_switch: str):
        env = dict(os.environ, STRATA_AGENT_WARM_WORKER=warm_switch)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "agent"),
                                                          env.get("PYTHONPATH")]))
        self.process = subprocess.Popen([python, "-m", "strata_agent", "--stdio"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO)
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.messages.put((time.monotonic(), json.loads(line)))
        self.messages.put((time.monotonic(), None))

    def request(self, method: str, params: dict | None = None) -> tuple[dict, list, float]:
        """(reply, [(seconds after the request, progress params)], seconds to the reply)."""
        request_id, self.next_id = self.next_id, self.next_id + 1
        sent = time.monotonic()
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": request_id,
                                             "method": method, "params": params or {}}) + "\n")
        self.process.stdin.flush()
        progress = []
        while True:
            at, message = self.messages.get(timeout=600)
            if message is None:
                raise RuntimeError("the agent exited")
            if message.get("method") == "progress" and message["params"]["id"] == request_id:
                progress.append((at - sent, message["params"]))
            elif message.get("id") == request_id:
                return message, progress, at - sent

    def close(self) -> None:
        try:
            self.request("shutdown")
            self.process.wait(timeout=30)
        except Exception:
            self.process.kill()


def compile_once(agent: Agent, work_root: Path, index: int) -> dict:
    params = {"source_path": str(SAMPLE), "spec": json.loads(SPEC.read_text()),
              "spec_path": str(SPEC), "work_dir": str(work_root / f"run-{index}"),
              "pass_dumps": True}
    reply, progress, wall_s = agent.request("compile", params)
    if "error" in reply:
        raise RuntimeError(f"compile failed: {reply['error']}")
    result = reply["result"]
    first = progress[0][1]
    return {"wall_s": round(wall_s, 3), "duration_s": result["duration_s"],
            "warm_worker": bool(first.get("warm_worker")),
            "spare_was_ready": first.get("spare_was_ready"),
            "pass_dumps": len(result["pass_dumps"]), "artifacts": sorted(result["artifacts"]),
            "phases_s": phases(progress, wall_s)}


def phases(progress: list, wall_s: float) -> dict[str, float]:
    """Seconds between consecutive progress notifications (their arrival times): `start` is the
    request to `compiling` (worker start or handover, imports, spec checks), `frontend` to the
    first stage (cache key, AST to TTIR), one entry per backend stage (`cubin` runs until the
    worker has written its files and exited), `collect` from `collecting artifacts` to the reply
    (splitting the dumps, nvdisasm, hashing, compile.json)."""
    marks = [("start", 0.0)]
    for at, params in progress:
        if params["message"] == "compiling":
            marks.append(("frontend", at))
        elif "stage" in params:
            marks.append((params["stage"], at))
        elif params["message"] == "collecting artifacts":
            marks.append(("collect", at))
    ends = [at for _, at in marks[1:]] + [wall_s]
    return {name: round(end - at, 3) for (name, at), end in zip(marks, ends)}


def summarize(runs: list[dict]) -> dict:
    walls = [run["wall_s"] for run in runs]
    later = walls[1:] or walls
    phase_names = list(runs[-1]["phases_s"])
    return {"first_s": walls[0], "median_s": round(statistics.median(walls), 3),
            "min_s": min(walls), "max_s": max(walls),
            "median_after_first_s": round(statistics.median(later), 3),
            "warm_served": sum(run["warm_worker"] for run in runs),
            "phase_medians_after_first_s": {
                name: round(statistics.median(run["phases_s"].get(name, 0.0)
                                              for run in (runs[1:] or runs)), 3)
                for name in phase_names},
            "runs": runs}


def measure(python: str, mode: str, count: int) -> tuple[dict, dict]:
    agent = Agent(python, MODES[mode])
    try:
        info = agent.request("info")[0]["result"]
        with tempfile.TemporaryDirectory(prefix=f"strata-bench-{mode}-") as work_root:
            runs = [compile_once(agent, Path(work_root), index) for index in range(count)]
    finally:
        agent.close()
    return summarize(runs), info


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    return {"cpu": model, "cores": os.cpu_count(), "platform": platform.platform(),
            "load_average_at_start": [round(value, 2) for value in os.getloadavg()]}


def git_state() -> dict:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                              check=False).stdout.strip()
    return {"commit": git("rev-parse", "HEAD"),
            "uncommitted_changes": bool(git("status", "--porcelain", "--untracked-files=no"))}


def print_table(figures: dict) -> None:
    print(f"{'mode':6} {'first':>7} {'median':>7} {'min':>7} {'max':>7} {'med 2..N':>9} warm")
    for mode, summary in figures.items():
        print(f"{mode:6} {summary['first_s']:7.2f} {summary['median_s']:7.2f} "
              f"{summary['min_s']:7.2f} {summary['max_s']:7.2f} "
              f"{summary['median_after_first_s']:9.2f} {summary['warm_served']}/"
              f"{len(summary['runs'])}")
    for mode, summary in figures.items():
        phases_text = ", ".join(f"{name} {value:.2f}" for name, value in
                                summary["phase_medians_after_first_s"].items())
        print(f"{mode} phases (median of 2..N, s): {phases_text}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable, help="the agent's interpreter")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results")
    args = parser.parse_args()
    started = datetime.datetime.now(datetime.timezone.utc)
    host = machine()
    figures, info = {}, {}
    for mode in MODES:
        figures[mode], info = measure(args.python, mode, args.runs)
    warm = figures["warm"]["median_after_first_s"]
    verdict = "met" if warm < TARGET_S else "missed"
    print_table(figures)
    print(f"target: warm compile < {TARGET_S:g} s -> {warm:.2f} s, {verdict}")
    record = {"benchmark": "compile_latency", "issue": 19,
              "date": started.isoformat(timespec="seconds"), "machine": host,
              "python": info.get("python"), "triton": info.get("triton"), **git_state(),
              "sample": {"source": str(SAMPLE.relative_to(REPO)),
                         "spec": str(SPEC.relative_to(REPO)), "pass_dumps": True},
              "runs_per_mode": args.runs,
              "target": {"warm_s": TARGET_S, "measured_s": warm, "verdict": verdict,
                         "on": "warm median of compiles 2..N (the agent's first is cold)"},
              "figures": figures}
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"compile-latency-{started.date().isoformat()}.json"
    path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
