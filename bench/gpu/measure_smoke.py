"""Measures the smoke tasks through a real agent process (JSON-RPC over stdio), on a GPU host.

Writes one JSON document (rewritten after every step, so a cut-off run still leaves what it
measured): device, driver, versions, git commit, date; ceilings; per good task its verdict,
captured kernels (and whether the agent's compile of the captured spec gives the JIT's PTX),
times against eager / torch.compile baselines with SOL %, and an Nsight Compute profile; the
verdicts of the cheat / wrong tasks; the same-kernel-twice self check; the L2 flush effect; and
the out-of-bounds and hang candidates being contained while the agent keeps serving.

  python3 bench/gpu/measure_smoke.py --out results.json [--deadline-s 420]
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SMOKE = REPO / "suites" / "tasks-smoke"
GOOD = ["vector_add", "softmax", "matmul_fp16", "scale_copy"]
BAD = ["cheat_reference_op", "cheat_returns_input", "cheat_cached_output", "cheat_no_triton",
       "cheat_side_stream", "wrong_off_by_one", "wrong_reduction_axis", "wrong_nan_softmax"]
PROFILED = ["softmax", "matmul_fp16"]


class Agent:
    def __init__(self) -> None:
        path = os.pathsep.join(filter(None, [str(REPO / "agent"), os.environ.get("PYTHONPATH")]))
        env = dict(os.environ, PYTHONPATH=path, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen([sys.executable, "-m", "strata_agent", "--stdio"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=sys.stderr, text=True, env=env, cwd=REPO)
        self.next_id = 0

    def call(self, method: str, params: dict | None = None) -> dict:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method,
                   "params": params or {}}
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("agent exited")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                return reply

    def close(self) -> None:
        self.call("shutdown")
        self.process.wait(timeout=30)


def git_commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True,
                              text=True, timeout=10).stdout.strip() or None
    except OSError:
        return None


def task(name: str) -> str:
    return str(SMOKE / f"{name}.py")


class Run:
    def __init__(self, out: Path, deadline_s: float):
        self.out = out
        self.deadline = time.monotonic() + deadline_s
        self.agent = Agent()
        self.results: dict = {"date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"), "git_commit": os.environ.get("STRATA_GIT_COMMIT") or git_commit(),
            "steps": {}, "skipped": []}

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def step(self, key: str, method: str, params: dict | None = None, need_s: float = 20):
        if self.only and not any(key.startswith(prefix) for prefix in self.only):
            return None
        if self.left() < need_s:
            self.results["skipped"].append(key)
            self.save()
            return None
        started = time.monotonic()
        reply = self.agent.call(method, params)
        entry = {"method": method, "wall_s": round(time.monotonic() - started, 2)}
        entry.update({"result": reply["result"]} if "result" in reply else {"error": reply["error"]})
        self.results["steps"][key] = entry
        self.save()
        print(f"{key}: {entry['wall_s']} s {'ok' if 'result' in entry else 'ERROR'}", flush=True)
        return reply.get("result")

    def save(self) -> None:
        self.out.write_text(json.dumps(self.results, indent=1, default=str) + "\n")


def reproduce(run: Run, name: str, captured: dict | None) -> None:
    if not captured or not captured.get("kernels"):
        return
    kernel = captured["kernels"][0]
    work = tempfile.mkdtemp(prefix=f"strata-bench-{name}-")
    compiled = run.step(f"compile_captured:{name}", "compile",
                        {"source_path": kernel["source_path"], "spec": kernel["spec"],
                         "work_dir": work, "pass_dumps": False}, need_s=30)
    if compiled:
        ptx = Path(compiled["artifacts"]["ptx"]["path"]).read_bytes()
        same = hashlib.sha256(ptx).hexdigest() == kernel.get("ptx_sha256")
        run.results["steps"][f"compile_captured:{name}"]["same_ptx_as_jit"] = same
        del run.results["steps"][f"compile_captured:{name}"]["result"]["pass_dumps"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--deadline-s", type=float, default=420)
    parser.add_argument("--only", default="", help="comma-separated step-key prefixes to run")
    parser.add_argument("--profile-dir", default="", help="keep ncu reports and CSVs here")
    args = parser.parse_args()
    run = Run(Path(args.out), args.deadline_s)
    run.only = [prefix for prefix in args.only.split(",") if prefix]
    run.profile_dir = args.profile_dir
    run.results["info"] = run.agent.call("info")["result"]
    run.step("ceilings", "ceilings", {"timeout_s": 240}, need_s=60)
    for name in GOOD:
        run.step(f"verify:{name}", "verify", {"task": task(name)})
        reproduce(run, name, run.step(f"run_task:{name}", "run_task", {"task": task(name)}))
    # The same >= 0.5 ms kernel twice (scale_copy moves 2.7 GB), interleaved; baselines too.
    run.step("time:scale_copy", "time", {"task": task("scale_copy"), "self_check": True,
                                         "timeout_s": 240}, need_s=60)
    # L2: vector add of 2^20 floats (12 MB, fits the 60 MB L2) with and without the flush.
    run.step("time:vector_add_l2", "time", {"task": task("vector_add"), "shape": {"N": 1 << 20},
                                            "candidates": ["triton", "eager"],
                                            "warm_l2": ["triton", "eager"]})
    for name in ["vector_add", "softmax", "matmul_fp16"]:
        run.step(f"time:{name}", "time", {"task": task(name), "timeout_s": 300}, need_s=60)
    for name in BAD:
        run.step(f"verify:{name}", "verify", {"task": task(name)}, need_s=15)
    # Containment: a planted out-of-bounds store and a hang, then the agent serves on.
    run.step("verify:crash_out_of_bounds", "verify", {"task": task("crash_out_of_bounds")})
    run.step("verify:hang_forever", "verify", {"task": task("hang_forever"), "timeout_s": 15})
    run.step("after_crash:verify:vector_add", "verify", {"task": task("vector_add")})
    for name in PROFILED:
        params = {"task": task(name), "timeout_s": 180}
        if run.profile_dir:
            params["work_dir"] = os.path.join(run.profile_dir, name)
        run.step(f"profile:{name}", "profile", params, need_s=40)
    run.results["summary"] = summarize(run.results["steps"])
    run.save()
    run.agent.close()
    print(json.dumps(run.results["summary"], indent=1))
    return 0


def summarize(steps: dict) -> dict:
    summary: dict = {"verdicts": {}, "times": {}, "reproduced_ptx": {}}
    for key, entry in steps.items():
        result = entry.get("result") or {}
        if key.startswith("verify:") or key.startswith("after_crash:"):
            summary["verdicts"][key] = [result.get("verdict"),
                                        sorted({r["kind"] for r in result.get("reasons", [])})]
        elif key.startswith("time:"):
            summary["times"][key] = {
                "candidates": {name: {k: stats.get(k) for k in ("median_ms", "iqr_ms", "n",
                                                                "method", "l2")}
                               for name, stats in result.get("candidates", {}).items()},
                "comparisons": result.get("comparisons"),
                "sol_pct": {name: sol.get("sol_pct") for name, sol in
                            (result.get("roofline") or {}).get("per_candidate", {}).items()}}
        elif key.startswith("compile_captured:"):
            summary["reproduced_ptx"][key] = entry.get("same_ptx_as_jit")
        elif key.startswith("profile:"):
            ncu = result.get("ncu", {})
            summary[key] = {"status": ncu.get("status") or entry.get("error"),
                            "kernels": [k.get("kernel") for k in ncu.get("kernels", [])]}
    return summary


if __name__ == "__main__":
    sys.exit(main())
