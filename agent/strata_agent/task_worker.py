"""What every backend's task worker does the same way (backends/nvidia/task_worker.py,
backends/ascend/npu_task_worker.py): one fresh process per call that reads a request file,
does one action and writes the outcome where the runner (task_runner.py) reads it.

stdout carries progress lines ({"progress": ...}) only: file descriptor 1 is pointed at stderr
before the task is imported, so whatever the task or the device runtime prints cannot corrupt
it. A failure becomes the outcome's `error` (kind, message, the task file's line); which errors
are the device's own (a broken context) the backend says (backends/nvidia/device.py).
"""
from __future__ import annotations

import json
import os
import resource
import sys
import time
import traceback
from typing import Any, TextIO

from .backends.nvidia import device as nvidia_device

_progress_out: TextIO | None = None


def progress(message: str, **extra: Any) -> None:
    if _progress_out is not None:
        _progress_out.write(json.dumps({"progress": message, **extra}) + "\n")
        _progress_out.flush()


def redirect_stdout():
    """Progress keeps the original stdout (the agent's pipe); prints go to stderr. Returns the
    progress channel."""
    global _progress_out
    _progress_out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return _progress_out


def apply_memory_cap(limit_mb: int | None) -> str:
    if not limit_mb:
        return "none"
    limit = int(limit_mb) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return f"RLIMIT_AS {limit_mb} MiB"


def with_gate(result: dict, gate) -> dict:
    """The gate's wait and hold seconds go back with the result, where the host reads them."""
    if gate.active and isinstance(result, dict):
        result["gpu_gate"] = gate.report()
    return result


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


def _json_safe(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def error_outcome(error: BaseException, task_paths: list[str]) -> dict:
    from_task = getattr(error, "kind", None)
    frames = traceback.extract_tb(error.__traceback__)
    task_files = {os.path.abspath(path) for path in task_paths}
    in_task = [frame for frame in frames if os.path.abspath(frame.filename) in task_files]
    line = getattr(error, "line", None) or (in_task[-1].lineno if in_task else None)
    message = str(error).strip()
    device_error = nvidia_device.is_device_error(message)
    kind = from_task or (nvidia_device.DEVICE_ERROR_KIND if device_error else "candidate_raised")
    if not from_task and nvidia_device.is_no_device_error(message):
        kind = nvidia_device.NO_DEVICE_KIND
    if isinstance(error, ModuleNotFoundError) and error.name == "torch":
        kind = "torch_missing"
    return {"ok": False, "error": {
        "kind": kind, "message": f"{type(error).__name__}: {message[:2000]}",
        "file": in_task[-1].filename if in_task else (task_paths[0] if task_paths else None),
        "line": line, "error_type": type(error).__name__,
        "traceback": traceback.format_exception(error)[-12:]}}


def write_outcome_and_exit(request: dict, outcome: dict) -> None:
    """Writes the outcome where the runner reads it and ends the process without teardown: a
    device context (a GPU's, an NPU's) left broken by an illegal access can hang interpreter
    teardown."""
    with open(request["result_path"], "w", encoding="utf-8") as handle:
        json.dump(outcome, handle, default=str)
    sys.stderr.flush()
    os._exit(0)
