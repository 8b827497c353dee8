"""The task worker: `python -m strata_agent.task_worker REQUEST.json`, one fresh process per
candidate. Loads the task, does one action, writes the result JSON to request["result_path"].

Actions: `run` (one forward of ModelNew with every Triton launch captured), `verify`, `time`,
`profile_target` (the process Nsight Compute profiles: a warm-up forward, then one forward
between cudaProfilerStart/Stop) and `ceilings`.

stdout carries progress lines ({"progress": ...}) only: file descriptor 1 is pointed at stderr
before the task is imported, so whatever the task or CUDA prints cannot corrupt it.
"""
from __future__ import annotations

import json
import os
import resource
import sys
import time
import traceback
from typing import Any, TextIO

from .gpu_gate import from_params

_progress_out: TextIO | None = None


def progress(message: str, **extra: Any) -> None:
    if _progress_out is not None:
        _progress_out.write(json.dumps({"progress": message, **extra}) + "\n")
        _progress_out.flush()


def redirect_stdout() -> None:
    global _progress_out
    _progress_out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr


def apply_memory_cap(limit_mb: int | None) -> str:
    if not limit_mb:
        return "none"
    limit = int(limit_mb) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return f"RLIMIT_AS {limit_mb} MiB"


def run_action(request: dict) -> dict:
    action = request["action"]
    params = request.get("params", {})
    paths = request.get("task_paths", [])
    if action == "ceilings":
        from .roofline import load_or_measure
        from .task_time import device_description, versions
        device = device_description()
        gate = from_params(params)  # bandwidth and peaks are measured alone; a cache read waits for nothing
        ceilings = load_or_measure(device, bool(params.get("refresh")), lambda: gate.exclusive("ceilings"))
        return {"device": device, "versions": versions(), "ceilings": ceilings}
    if action == "time":
        from .task_time import time_tasks
        return time_tasks(paths, params, progress)
    from .task_loader import load_task
    task = load_task(paths[0])
    gate = from_params(params)
    if action == "verify":
        from .verify import verify_task
        result = verify_task(task, params, progress, hold=lambda: gate.shared("checks"))
        return with_gate(result, gate)
    if action == "run":
        with gate.shared("checks"):
            result = run_once(task, params)
        return with_gate(result, gate)
    if action == "profile_target":
        return with_gate(profile_target(task, params, gate), gate)
    raise ValueError(f"unknown action {action!r}")


def with_gate(result: dict, gate) -> dict:
    """The gate's wait and hold seconds go back with the result, where the host reads them."""
    if gate.active and isinstance(result, dict):
        result["gpu_gate"] = gate.report()
    return result


def run_once(task, params: dict) -> dict:
    import torch
    from .anticheat import OpCounter
    from .launch_capture import LaunchCapture
    from .task_loader import draw_inputs
    from .verify import build_models, task_device, tolerance_for
    _, candidate = build_models(task, int(params.get("seed", 7)))
    groups, notes = draw_inputs(task, int(params.get("seed", 7)))
    started = time.perf_counter()
    launch = not params.get("capture_only", False)
    counter = OpCounter()
    with torch.no_grad(), LaunchCapture(params.get("target"), launch=launch) as capture:
        with counter:  # the torch work around the kernels ("glue"), which diagnose weighs
            outputs = candidate(*groups[0])
        if torch.cuda.is_available():
            torch.cuda.synchronize()
    return run_reply(task, params, task_device(), started, notes, outputs, capture, counter, tolerance_for)


def run_reply(task, params: dict, device: str, started: float, notes, outputs, capture, counter,
              tolerance_for) -> dict:
    """The `run_task` reply of one captured forward (agent/PROTOCOL.md), for every backend:
    `tolerance_for(dtype, meta)` is the backend's per-dtype tolerance."""
    from .task_loader import tensors_in
    return {"task": task.path, "device": device, "meta": _json_safe(task.meta),
            "duration_s": round(time.perf_counter() - started, 3), "input_notes": notes,
            "outputs": [{"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
                         "tolerance": tolerance_for(t.dtype, task.meta)}
                        for t in tensors_in(outputs)],
            "launch_count": len(capture.launches) + capture.dropped,
            "launches": capture.launches[: int(params.get("max_launches", 200))],
            "kernels": capture.kernels(), "capture_errors": capture.errors,
            "torch_glue": counter.glue()}


def profile_target(task, params: dict, gate) -> dict:
    import torch
    from .launch_capture import LaunchCapture
    from .task_loader import draw_inputs
    from .verify import build_models
    _, candidate = build_models(task, 7)
    groups, _ = draw_inputs(task, 7)
    with torch.no_grad(), LaunchCapture() as capture:
        with gate.shared("warmup"):
            candidate(*groups[0])  # compiles and warms up outside the profiled range
            torch.cuda.synchronize()
        with gate.exclusive("profile"):  # the counters see no other worker's kernels
            torch.cuda.cudart().cudaProfilerStart()
            candidate(*groups[0])
            torch.cuda.synchronize()
            torch.cuda.cudart().cudaProfilerStop()
    return {"task": task.path, "kernels": capture.kernels()}


def _json_safe(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def error_outcome(error: BaseException, task_paths: list[str]) -> dict:
    from_task = getattr(error, "kind", None)
    frames = traceback.extract_tb(error.__traceback__)
    task_files = {os.path.abspath(path) for path in task_paths}
    in_task = [frame for frame in frames if os.path.abspath(frame.filename) in task_files]
    line = getattr(error, "line", None) or (in_task[-1].lineno if in_task else None)
    message = str(error).strip()
    is_cuda = "CUDA error" in message or "illegal memory access" in message
    kind = from_task or ("cuda_error" if is_cuda else "candidate_raised")
    if isinstance(error, ModuleNotFoundError) and error.name == "torch":
        kind = "torch_missing"
    return {"ok": False, "error": {
        "kind": kind, "message": f"{type(error).__name__}: {message[:2000]}",
        "file": in_task[-1].filename if in_task else (task_paths[0] if task_paths else None),
        "line": line, "error_type": type(error).__name__,
        "traceback": traceback.format_exception(error)[-12:]}}


def main(argv: list[str]) -> int:
    redirect_stdout()
    with open(argv[1], encoding="utf-8") as handle:
        request = json.load(handle)
    cap = apply_memory_cap(request.get("memory_limit_mb"))
    progress(f"worker started (pid {os.getpid()}); memory cap: {cap}", worker_pid=os.getpid())
    try:
        outcome = {"ok": True, "result": run_action(request)}
    except BaseException as error:  # the runner turns this into the candidate's failure
        outcome = error_outcome(error, request.get("task_paths", []))
    outcome["memory_cap"] = cap
    write_outcome_and_exit(request, outcome)


def write_outcome_and_exit(request: dict, outcome: dict) -> None:
    """Writes the outcome where the runner reads it and ends the process without teardown: a
    device context (CUDA, NPU) left broken by an illegal access can hang interpreter teardown."""
    with open(request["result_path"], "w", encoding="utf-8") as handle:
        json.dump(outcome, handle, default=str)
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv)
