"""A host agent for the optimization-loop tests on machines without a GPU (installed by the tests
as strata_agent/__main__.py in a temporary folder).

Everything but `time` goes to the real agent ($STRATA_REAL_AGENT_DIR, started as a child process)
with `interpret: true` added to run_task and verify, so the candidates really run and are really
verified on the CPU. `time` needs a GPU, so this shim answers it: each task file's median comes
from a `# strata-test-ms: X` line in it; without one, c<N>.py files get 1 / (1 + N / 10) ms and
others 1 ms. `# strata-test-sleep: S` makes its `time` call sleep S seconds first (to kill a run
mid-timing) unless STRATA_SHIM_NO_SLEEP is set (the restarted run); `# strata-test-die: 1` makes the
shim exit at once, as if a signal killed the agent mid-timing. The reply has the real reply's shape (agent/PROTOCOL.md, `time`).
"""
import json
import os
import re
import subprocess
import sys
import threading
import time

real = subprocess.Popen([sys.executable, "-m", "strata_agent", "--stdio"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, text=True, bufsize=1,
                        env=dict(os.environ, PYTHONPATH=os.environ["STRATA_REAL_AGENT_DIR"]))
write_lock = threading.Lock()


def send(message):
    with write_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def pump_real_replies():
    for line in real.stdout:
        with write_lock:
            sys.stdout.write(line)
            sys.stdout.flush()


def marker(text, name):
    match = re.search(rf"^# strata-test-{name}: ([0-9.]+)\s*$", text, re.MULTILINE)
    return float(match.group(1)) if match else None


def median_ms(path):
    text = open(path, encoding="utf-8").read()
    value = marker(text, "ms")
    if value is not None:
        return value
    number = re.fullmatch(r"c(\d+)\.py", os.path.basename(path))
    return 1.0 / (1.0 + int(number.group(1)) / 10.0) if number else 1.0


def timing(name, ms):
    return {"method": "cuda_graph", "l2": "flushed", "error": None, "notes": [], "n": 30,
            "median_ms": ms, "q1_ms": ms * 0.999, "q3_ms": ms * 1.001, "iqr_ms": ms * 0.002,
            "min_ms": ms * 0.99, "max_ms": ms * 1.01, "mean_ms": ms, "median_ci_rel": 0.001}


def answer_time(request):
    params = request.get("params", {})
    paths = [params["task"]] + list(params.get("compare_with", []))
    for path in paths:
        if marker(open(path, encoding="utf-8").read(), "die"):
            real.kill()
            os._exit(1)
        sleep = marker(open(path, encoding="utf-8").read(), "sleep")
        if sleep and not os.environ.get("STRATA_SHIM_NO_SLEEP"):
            time.sleep(sleep)
    candidates = {}
    for path in paths:
        label = "triton" if len(paths) == 1 else "triton:" + os.path.splitext(os.path.basename(path))[0]
        candidates[label] = timing(label, median_ms(path))
    for baseline in params.get("candidates", []):
        if baseline != "triton":
            candidates[baseline] = timing(baseline, 0.8)
    send({"jsonrpc": "2.0", "id": request["id"], "result": {
        "protocol": 1, "tasks": paths, "shape": None, "stop_reason": "converged", "timing_s": 0.1,
        "device": {"name": "shim GPU", "capability": "sm_90", "multiprocessors": 132, "l2_bytes": 1,
                   "memory_bytes": 1, "driver": "0"},
        "versions": {"python": sys.version.split()[0], "torch": "shim", "triton": "3.6.0", "cuda": "", "agent": "shim"},
        "clocks_before": {"gpus": [], "source": "none"}, "clocks_after": {"gpus": [], "source": "none"},
        "candidates": candidates, "comparisons": {}}})


threading.Thread(target=pump_real_replies, daemon=True).start()
for line in sys.stdin:
    request = json.loads(line)
    method = request.get("method")
    if method == "time":
        threading.Thread(target=answer_time, args=(request,), daemon=True).start()
        continue
    if method in ("run_task", "verify"):
        request.setdefault("params", {})["interpret"] = True
    real.stdin.write(json.dumps(request) + "\n")
    real.stdin.flush()
    if method == "shutdown":
        break
real.wait(timeout=30)
