"""Methods `run_task`, `verify`, `time` and `profile` for an Ascend target (server side; never
imports torch).

`run_task` and `verify` run the Ascend task worker's `run` and `verify` (npu_checks.py): the same
replies as the NVIDIA methods plus `backend` and `target`. Under `capture_only` (launches recorded,
not run) or `interpret` (triton-ascend's interpreter on the CPU) no NPU is needed; otherwise a
host without one gets error -32004 `npu_unavailable` with `reason`, also from `verify` (the
candidate was not judged, so no verdict). A worker that crashes or hangs is a `fail` verdict of
`verify`, an error of `run_task`, and the agent keeps serving, as on NVIDIA GPUs.

`time` runs the Ascend task worker (npu_task_worker.py) under the Python that has triton-ascend
and torch_npu, timed with torch.npu events; the reply has the shape of the CUDA `time` reply
(candidates, comparisons, device, versions) plus `backend`, `target` and the task's `counts`.
`profile` runs the same worker under `msprof op` and reads its CSVs (msprof.py); the parsed
summary goes where the CUDA reply puts Nsight Compute's, under `ncu` with `profiler: "msprof"`,
so one profile reader serves both (src/tasks/ProfileResult).

On a host without CANN, an NPU or msprof the reply says which is missing (npu_host.py):
`time` as error -32004 `npu_unavailable` with `reason`; `profile` as `ncu.status`
`unavailable` with `reason`, like a CUDA host without ncu. NEVER RUN ON AN NPU HERE.
"""
from __future__ import annotations

import os
import tempfile
from typing import Any

from ... import PROTOCOL_VERSION
from ...errors import WORKER_FAILED, StrataError
from ...task_runner import (_BAD_TASK_KINDS, TaskRequest, check_glue, raise_failure,
                           run_worker)
from . import npu_host
from .environment import AscendUnavailable, ascend_python
from .msprof import read_msprof_output, msprof_op_command

WORKER_MODULE = "strata_agent.backends.ascend.npu_task_worker"
NPU_UNAVAILABLE = "npu_unavailable"
NO_TRITON_ASCEND = "no_triton_ascend"


def ascend_request(action: str, params: dict) -> TaskRequest:
    request = TaskRequest(action, params)
    if not (request.interpret or request.capture_only):
        # No address-space cap on the NPU: like the CUDA driver, its runtime maps far more
        # virtual memory than a useful cap (GUESS, by analogy; never run on an NPU).
        request.memory_limit_mb = None
    return request


def worker_python() -> tuple[str | None, dict | None]:
    try:
        return ascend_python(), None
    except AscendUnavailable as missing:
        return None, {"reason": NO_TRITON_ASCEND, "message": str(missing)}


def checks_unavailable(request: TaskRequest, params: dict, doing: str) -> None:
    """Raises npu_unavailable when `run_task`/`verify` need an NPU this host lacks, or no Python
    has triton-ascend."""
    python, missing = worker_python()
    if not (request.interpret or request.capture_only):
        missing = npu_host.unavailable(need_msprof=False) or missing
    if missing:
        raise StrataError(WORKER_FAILED, NPU_UNAVAILABLE, f"cannot {doing} on an Ascend NPU: " +
                          missing["message"], file=request.task_paths[0],
                          reason=missing["reason"], target=params.get("target"))


def run_on_npu(params: dict, progress: Any, on_worker: Any = None) -> dict:
    request = ascend_request("run", params)
    checks_unavailable(request, params, "run the task")
    result, failure, _ = run_worker(request, progress, on_worker,
                                    worker_command=[ascend_python(), "-m", WORKER_MODULE])
    if failure:
        raise_failure(request, failure)
    return {"protocol": PROTOCOL_VERSION, **result}


def verify_on_npu(params: dict, progress: Any, on_worker: Any = None) -> dict:
    request = ascend_request("verify", params)
    check_glue(params.get("glue"))
    checks_unavailable(request, params, "verify the task")
    result, failure, _ = run_worker(request, progress, on_worker,
                                    worker_command=[ascend_python(), "-m", WORKER_MODULE])
    if failure and (failure["kind"] in _BAD_TASK_KINDS or failure["kind"] == NPU_UNAVAILABLE):
        raise_failure(request, failure)
    if failure:   # a crash, hang or exception is the candidate's failure: a verdict
        return {"protocol": PROTOCOL_VERSION, "task": request.task_paths[0], "backend": "ascend",
                "target": params.get("target"), "verdict": "fail", "reasons": [failure],
                "checks": [], "kernels": []}
    return {"protocol": PROTOCOL_VERSION, "task": request.task_paths[0], **result}


def time_on_npu(params: dict, progress: Any, on_worker: Any = None) -> dict:
    request = ascend_request("time", params)
    python, missing = worker_python()
    missing = npu_host.unavailable(need_msprof=False) or missing
    if missing:
        raise StrataError(WORKER_FAILED, NPU_UNAVAILABLE, "cannot time on an Ascend NPU: " +
                          missing["message"], file=request.task_paths[0],
                          reason=missing["reason"], target=params.get("target"))
    result, failure, _ = run_worker(request, progress, on_worker,
                                    worker_command=[python, "-m", WORKER_MODULE])
    if failure:
        raise_failure(request, failure)
    return {"protocol": PROTOCOL_VERSION, **result}


def profile_reply(request: TaskRequest, params: dict, summary: dict,
                  device: dict | None = None) -> dict:
    reply = {"protocol": PROTOCOL_VERSION, "task": request.task_paths[0], "backend": "ascend",
             "target": params.get("target"), "kernels": [],
             "ncu": {"profiler": "msprof", **summary}}
    if device:
        reply["device"] = device
    return reply


def profile_on_npu(params: dict, progress: Any, on_worker: Any = None) -> dict:
    request = ascend_request("profile_target", params)
    python, missing = worker_python()
    missing = npu_host.unavailable(need_msprof=True) or missing
    if missing:
        return profile_reply(request, params, {"status": "unavailable", **missing})
    report_dir = params.get("work_dir") or tempfile.mkdtemp(prefix="strata-msprof-")
    os.makedirs(report_dir, exist_ok=True)
    report_dir = os.path.abspath(report_dir)
    kernel = params.get("kernel") if isinstance(params.get("kernel"), str) else None
    # The worker runs one warm-up forward (the compile) and one measured forward: skip one
    # launch, profile one.
    prefix = msprof_op_command(kernel, report_dir, [], warm_up=1, launch_count=1)
    progress(f"profiling under {npu_host.msprof_path()}")
    result, failure, worker = run_worker(request, progress, on_worker, command_prefix=prefix,
                                         keep_dir=True,
                                         worker_command=[python, "-m", WORKER_MODULE])
    output_tail = (worker.stderr_tail() or "").splitlines()[-20:]
    worker.cleanup()
    summary = read_msprof_output(report_dir)
    summary.update(path=npu_host.msprof_path(), command=prefix)
    if failure and failure.get("kind") == NPU_UNAVAILABLE:
        summary.update(status="unavailable", reason=failure.get("reason"),
                       message=failure["message"])
    elif failure and summary["status"] != "ok":
        summary.update(status="profiler_failed", message=failure["message"],
                       output_tail=output_tail)
    elif failure:
        summary["worker_error"] = failure["message"]
    return profile_reply(request, params, summary, (result or {}).get("device"))
