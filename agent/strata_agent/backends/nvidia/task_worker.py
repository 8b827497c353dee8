"""The NVIDIA task worker: `python -m strata_agent.backends.nvidia.task_worker REQUEST.json`,
one fresh process per candidate (started by task_runner), or `... task_worker --spare
[--preload=torch]`, started ahead and handed its request on stdin (warm_worker.TASK_SPARES). Loads the task, does one action,
writes the result JSON to request["result_path"] (the request, outcome and progress lines are
the core's: strata_agent/task_worker.py).

Actions: `run` (one forward of ModelNew with every Triton launch captured), `verify`, `time`,
`profile_target` (the process Nsight Compute profiles: a warm-up forward, then one forward
between cudaProfilerStart/Stop) and `ceilings`.
"""
from __future__ import annotations

import json
import os
import sys
import time

from ...gpu_gate import from_params
from ...task_worker import (apply_memory_cap, error_outcome, progress, redirect_stdout,
                            run_reply, with_gate, write_outcome_and_exit)


def run_action(request: dict) -> dict:
    action = request["action"]
    params = request.get("params", {})
    paths = request.get("task_paths", [])
    if action == "ceilings":
        from .ceilings import load_or_measure
        from .task_time import device_description, versions
        device = device_description()
        # Bandwidth and peaks are measured alone; a cache read waits for nothing.
        gate = from_params(params)
        ceilings = load_or_measure(device, bool(params.get("refresh")),
                                   lambda: gate.exclusive("ceilings"))
        return {"device": device, "versions": versions(), "ceilings": ceilings}
    if action == "time":
        from .task_time import time_tasks
        return time_tasks(paths, params, progress)
    from ...task_loader import load_task
    task = load_task(paths[0])
    gate = from_params(params)
    if action == "verify":
        from ...verify import verify_task
        result = verify_task(task, params, progress, hold=lambda: gate.shared("checks"))
        return with_gate(result, gate)
    if action == "run":
        with gate.shared("checks"):
            result = run_once(task, params)
        return with_gate(result, gate)
    if action == "profile_target":
        return with_gate(profile_target(task, params, gate), gate)
    raise ValueError(f"unknown action {action!r}")


def run_once(task, params: dict) -> dict:
    import torch
    from ...anticheat import OpCounter
    from ...launch_capture import LaunchCapture
    from ...task_loader import draw_inputs
    from ...verify import build_models, task_device, tolerance_for
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
    return run_reply(task, params, task_device(), started, notes, outputs, capture, counter,
                     tolerance_for)


def profile_target(task, params: dict, gate) -> dict:
    import torch
    from ...launch_capture import LaunchCapture
    from ...task_loader import draw_inputs
    from ...verify import build_models
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


def main(argv: list[str]) -> int:
    from .spare import request_path_of
    # A warm spare (warm_worker.TASK_SPARES) loads torch and triton, then waits for its request.
    request_path = request_path_of(argv, redirect_stdout())
    if request_path is None:
        return 0   # the agent went away, or dropped this spare, before a request
    with open(request_path, encoding="utf-8") as handle:
        request = json.load(handle)
    cap = apply_memory_cap(request.get("memory_limit_mb"))
    progress(f"worker started (pid {os.getpid()}); memory cap: {cap}", worker_pid=os.getpid())
    try:
        outcome = {"ok": True, "result": run_action(request)}
    except BaseException as error:  # the runner turns this into the candidate's failure
        outcome = error_outcome(error, request.get("task_paths", []))
    outcome["memory_cap"] = cap
    write_outcome_and_exit(request, outcome)


if __name__ == "__main__":
    main(sys.argv)
