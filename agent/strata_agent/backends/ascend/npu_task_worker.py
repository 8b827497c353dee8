"""The Ascend task worker: `python -m strata_agent.backends.ascend.npu_task_worker REQUEST.json`,
run by the Python that has triton-ascend and torch_npu (environment.py), one process per call,
as backends/nvidia/task_worker.py is for NVIDIA GPUs (same request and outcome files, same
progress lines: strata_agent/task_worker.py).

Actions:
  run             one forward of ModelNew with every launch captured (npu_checks.py); under
                  `capture_only` the launches are recorded and skipped (no NPU needed), under
                  `interpret` triton-ascend's interpreter runs them on the CPU
  verify          strata_agent.verify's checks with the device hooks pointed at the NPU (or at
                  the CPU under `interpret`), float64 reference on the CPU (npu_checks.py)
  time            ModelNew ("triton"; with compare_with every task's, as "triton:<task name>"),
                  Model ("eager") and, when asked, torch.compile(Model) ("compile"), timed in
                  turns with torch.npu events (npu_timing.py), plus the task's FLOP and byte
                  counts and the NPU's core counts
  profile_target  one warm-up forward, then one forward: the process `msprof op` wraps (msprof
                  profiles the launches of the kernel it was told to; the warm-up compiles)

NEVER RUN ON AN NPU HERE: no host with CANN was reachable; the tests reach the clean failure
when torch_npu cannot be imported, and `run`/`verify` under capture-only and the interpreter.
"""
from __future__ import annotations

import json
import os
import platform
import sys
import time
from typing import Any

from ...task_worker import (apply_memory_cap, error_outcome, progress, redirect_stdout,
                            write_outcome_and_exit)

NPU = "npu"


class NpuUnavailable(Exception):
    """torch_npu could not be imported or sees no NPU; `kind` is the protocol's reason."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.kind = "npu_unavailable"
        self.reason = reason


def npu_device() -> Any:
    try:
        from .npu_timing import npu_device as load
        device = load()
    except Exception as error:   # ImportError, or CANN's libraries missing under torch_npu
        raise NpuUnavailable("no_torch_npu", "torch_npu cannot be imported by "
                             f"{sys.executable}: {type(error).__name__}: {error}") from error
    if not device.is_available():
        raise NpuUnavailable("no_npu", "torch_npu sees no NPU (torch.npu.is_available() is "
                             "False)")
    return device


def on_npu(value: Any) -> Any:
    import torch
    from ...task_loader import map_tensors
    if isinstance(value, torch.nn.Module):
        return value.to(NPU)
    return map_tensors(value, lambda tensor: tensor.to(NPU))


def models_and_inputs(path: str, params: dict) -> tuple[Any, Any, Any, list]:
    import torch
    from ...task_loader import draw_inputs, load_task
    task = load_task(path)
    task.set_shape(params.get("shape") or {})
    init = task.init_inputs()
    torch.manual_seed(7)
    reference = on_npu(task.module.Model(*init))
    torch.manual_seed(7)
    candidate = on_npu(task.module.ModelNew(*init))
    groups, _ = draw_inputs(task, int(params.get("seed", 7)))
    return task, reference, candidate, on_npu(groups[0])


def core_counts(device: Any) -> dict:
    """The AI cube and vector core counts as triton-ascend's driver reports them
    (`get_device_properties(d)["num_aicore"/"num_vectorcore"]`, ASCEND-NOTES.md section 2)."""
    try:
        from triton.runtime import driver
        properties = driver.active.utils.get_device_properties(device.current_device())
        return {"num_aicore": properties.get("num_aicore"),
                "num_vectorcore": properties.get("num_vectorcore")}
    except Exception as error:
        return {"core_count_error": f"{type(error).__name__}: {error}"}


def device_description(device: Any, target: str | None) -> dict:
    index = device.current_device()
    return {"name": device.get_device_name(index), "capability": target, "backend": "ascend",
            **core_counts(device)}


def versions() -> dict:
    import torch
    import torch_npu
    import triton
    from ... import AGENT_VERSION
    return {"python": platform.python_version(), "torch": torch.__version__,
            "torch_npu": getattr(torch_npu, "__version__", None), "triton": triton.__version__,
            "agent": AGENT_VERSION}


TIMED_BY_DEFAULT = ["triton", "eager"]


def timed_forwards(paths: list[str], params: dict, names: list[str]) -> tuple[Any, Any, Any,
                                                                             dict]:
    """(first task, its Model, its inputs on the NPU, {label: forward}) for the candidates `names` asks
    for: ModelNew of every task ("triton", or "triton:<task name>" for several, the labels of
    the NVIDIA `time`), Model ("eager") and torch.compile(Model) ("compile"), all on the first
    task's inputs."""
    import torch
    from ...task_loader import load_task
    task, reference, candidate, inputs = models_and_inputs(paths[0], params)
    forwards: dict[str, Any] = {}
    if "triton" in names:
        if len(paths) == 1:
            forwards["triton"] = candidate
        else:
            forwards[f"triton:{task.name}"] = candidate
            for other_path in paths[1:]:
                other = load_task(other_path)
                other.set_shape(params.get("shape") or {})
                torch.manual_seed(7)
                forwards[f"triton:{other.name}"] = on_npu(other.module.ModelNew(
                    *other.init_inputs()))
    if "eager" in names:
        forwards["eager"] = reference
    if "compile" in names:
        forwards["compile"] = torch.compile(reference)   # never tried on an NPU here
    return task, reference, inputs, forwards


def time_task(paths: list[str], params: dict) -> dict:
    import torch
    from ...gpu_gate import from_params
    from ...roofline import precision_of
    from ...task_loader import tensors_in, work_counts
    from ...task_worker import with_gate
    from .npu_timing import interleaved_results
    device = npu_device()
    names = [name for name in (params.get("candidates") or TIMED_BY_DEFAULT)
             if name in ("triton", "eager", "compile")]
    task, reference, inputs, forwards = timed_forwards(paths, params, names)
    repetitions = int(params.get("min_reps", 100))
    gate = from_params(params)
    started = time.perf_counter()
    with torch.no_grad():
        progress(f"timing {', '.join(forwards)} on the NPU (interleaved)")
        with gate.exclusive("measure"):
            candidates = interleaved_results(
                {name: (lambda model=model: model(*inputs)) for name, model in forwards.items()},
                device, repetitions)
        outputs = reference(*inputs)   # the counts' outputs: the reference's
    triton = candidates.get("triton") or next((value for key, value in candidates.items()
                                               if key.startswith("triton:")), None)
    comparisons = {}
    for baseline in ("eager", "compile"):
        if triton and triton.get("median_ms") and candidates.get(baseline, {}).get("median_ms"):
            comparisons[f"speedup_vs_{baseline}"] = candidates[baseline]["median_ms"] / \
                triton["median_ms"]
    result = {"backend": "ascend", "target": params.get("target"), "tasks": list(paths),
              "shape": params.get("shape"), "device": device_description(device,
                                                                         params.get("target")),
              "versions": versions(), "stop_reason": "repetitions",
              "timing_s": round(time.perf_counter() - started, 2), "l2_flush_bytes": 0,
              "candidates": candidates, "comparisons": comparisons,
              "roofline": unmeasured_roofline(task, work_counts(task, tensors_in(inputs),
                                                                outputs),
                                              precision_of(task.meta, tensors_in(inputs)))}
    return with_gate(result, gate)


def unmeasured_roofline(task: Any, counts: dict, precision: str) -> dict:
    """The roofline section without ceilings: nothing measures an NPU's copy bandwidth or peak
    here, so the counts and precision travel and the backend plugin's published ceilings bound
    the time on the C++ side (plugins/ascend)."""
    return {"ceilings": {"error": "no ceilings measured on an Ascend host; the Ascend plugin's "
                         "published figures apply"},
            "counts": counts, "precision": precision, "category": task.meta.get("category"),
            "per_candidate": {}}


def profile_target(path: str, params: dict) -> dict:
    import torch
    device = npu_device()
    task, _, candidate, inputs = models_and_inputs(path, params)
    with torch.no_grad():
        candidate(*inputs)          # compiles; msprof's --warm-up skips these launches
        device.synchronize()
        candidate(*inputs)
        device.synchronize()
    return {"task": task.path, "device": device_description(device, params.get("target"))}


def check_device(params: dict) -> Any:
    """The device `run` and `verify` use: the CPU under `interpret`, None (nothing launches)
    under `capture_only`, else the NPU."""
    from .npu_checks import cpu_device, npu_check_device
    if params.get("capture_only"):
        return None
    if params.get("interpret"):
        return cpu_device()
    return npu_check_device()


def run_action(request: dict) -> dict:
    action, params = request["action"], request.get("params", {})
    path = request["task_paths"][0]
    if action in ("run", "verify"):
        from ...gpu_gate import from_params
        from ...task_loader import load_task
        from ...task_worker import with_gate
        from .npu_checks import run_on_device, verify_on_device
        device = check_device(params)
        task = load_task(path)
        gate = from_params(params)
        if action == "verify":   # the gate is held per piece of device work, as on NVIDIA GPUs
            return with_gate(verify_on_device(task, params, device, progress,
                                              hold=lambda: gate.shared("checks")), gate)
        with gate.shared("checks"):
            return with_gate(run_on_device(task, params, device), gate)
    if action == "time":
        return time_task(request["task_paths"], params)
    if action == "profile_target":
        return profile_target(path, params)
    raise ValueError(f"unknown Ascend action {action!r}")


def main(argv: list[str]) -> int:
    redirect_stdout()
    with open(argv[1], encoding="utf-8") as handle:
        request = json.load(handle)
    cap = apply_memory_cap(request.get("memory_limit_mb"))
    progress(f"Ascend worker started (pid {os.getpid()}); memory cap: {cap}",
             worker_pid=os.getpid())
    try:
        outcome: dict = {"ok": True, "result": run_action(request)}
    except BaseException as error:
        outcome = error_outcome(error, request.get("task_paths", []))
        # Not isinstance: this file runs as __main__, and npu_checks imports it as a module too.
        if getattr(error, "kind", None) == "npu_unavailable":
            outcome["error"].update(kind=error.kind, reason=getattr(error, "reason", None))
    outcome["memory_cap"] = cap
    write_outcome_and_exit(request, outcome)


if __name__ == "__main__":
    main(sys.argv)
