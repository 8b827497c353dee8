"""Captures real task-method replies from the host agent for tests/tasks (run on a GPU machine).

    python3 tests/tasks/capture_agent_outputs.py OUT_DIR [NAME_PREFIX ...]
    python3 tests/tasks/capture_agent_outputs.py --split OUT_DIR/agent-replies.json FIXTURE_DIR

Starts `python3 -m strata_agent --stdio` from this checkout, sends each request below (or those
whose name starts with a NAME_PREFIX) and writes OUT_DIR/agent-replies.json: {name: {"request",
"reply", "progress", "seconds"}}. `--split` writes one FIXTURE_DIR/NAME.json per exchange:
tests/tasks/fixtures/h200/ was made so, from a run on an NVIDIA H200 (torch 2.11, triton 3.6.0,
ncu 2025.3.1) on 2026-12-01.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "suites" / "tasks-smoke"

REQUESTS = [
    ("run_task-vector_add", "run_task", {"task": str(SMOKE / "vector_add.py")}),
    ("run_task-matmul_fp16", "run_task", {"task": str(SMOKE / "matmul_fp16.py")}),
    ("verify-vector_add", "verify", {"task": str(SMOKE / "vector_add.py")}),
    ("verify-cheat_reference_op", "verify", {"task": str(SMOKE / "cheat_reference_op.py")}),
    ("verify-wrong_off_by_one", "verify", {"task": str(SMOKE / "wrong_off_by_one.py")}),
    ("ceilings", "ceilings", {}),
    ("time-vector_add", "time", {"task": str(SMOKE / "vector_add.py"),
                                 "candidates": ["triton", "eager"], "self_check": True,
                                 "warm_l2": ["triton"], "time_cap_s": 2}),
    ("profile-vector_add", "profile", {"task": str(SMOKE / "vector_add.py")}),
    ("run_task-hang_forever", "run_task", {"task": str(SMOKE / "hang_forever.py"), "timeout_s": 15}),
    ("run_task-missing", "run_task", {"task": str(SMOKE / "no_such_task.py")}),
    # Triton's CPU interpreter (what CI without a GPU runs), on the same GPU machine.
    ("interpret-run_task-vector_add", "run_task", {"task": str(SMOKE / "vector_add.py"), "interpret": True}),
    ("interpret-verify-vector_add", "verify", {"task": str(SMOKE / "vector_add.py"), "interpret": True}),
    ("interpret-verify-cheat_no_triton", "verify", {"task": str(SMOKE / "cheat_no_triton.py"),
                                                    "interpret": True}),
]


def split(replies_path: Path, fixture_dir: Path) -> int:
    fixture_dir.mkdir(parents=True, exist_ok=True)
    for name, exchange in json.loads(replies_path.read_text()).items():
        kept = {key: exchange[key] for key in ("request", "progress", "reply")}
        (fixture_dir / f"{name}.json").write_text(json.dumps(kept, indent=1))
    return 0


def main() -> int:
    if sys.argv[1] == "--split":
        return split(Path(sys.argv[2]), Path(sys.argv[3]))
    out_dir = Path(sys.argv[1])
    prefixes = sys.argv[2:]
    out_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "agent"), PYTHONUNBUFFERED="1")
    agent = subprocess.Popen([sys.executable, "-m", "strata_agent", "--stdio"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=env)
    captured = {}
    for number, (name, method, params) in enumerate(REQUESTS, start=1):
        if prefixes and not name.startswith(tuple(prefixes)):
            continue
        started = time.time()
        agent.stdin.write(json.dumps({"jsonrpc": "2.0", "id": number, "method": method,
                                      "params": params}) + "\n")
        agent.stdin.flush()
        progress = []
        while True:
            line = agent.stdout.readline()
            if not line:
                raise SystemExit(f"agent exited during {name}")
            message = json.loads(line)
            if message.get("method") == "progress":
                progress.append(message["params"])
                continue
            captured[name] = {"request": {"method": method, "params": params}, "reply": message,
                              "progress": progress, "seconds": round(time.time() - started, 2)}
            print(name, "error" if "error" in message else "ok", captured[name]["seconds"], "s",
                  flush=True)
            break
        (out_dir / "agent-replies.json").write_text(json.dumps(captured, indent=1))
    agent.stdin.close()
    agent.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
