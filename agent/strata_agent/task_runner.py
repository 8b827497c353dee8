"""Methods `run_task`, `verify`, `time`, `profile`, `ceilings`: server side (never imports torch).

Every call starts a fresh task worker process in its own session (the NVIDIA backend's, `python
-m strata_agent.backends.nvidia.task_worker`, unless the caller names another backend's), with
a timeout and (where it makes sense) an address-space cap, so an illegal address, a hang or a
crash is that candidate's failure and the agent keeps serving. Task workers run one at a time
(a lock): two timings on one GPU would disturb each other. What depends on the device (whether
a GPU is there, how a CPU run hides it) is the backend's (backends/nvidia/device.py).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, Iterable

from . import PROTOCOL_VERSION
from .errors import BAD_INPUT, TIMEOUT, WORKER_FAILED, StrataError, bad_input, invalid_params
from .backends import nvidia
from .backends.nvidia import device as nvidia_device
from .process_group import kill_group, kill_leftovers

_AGENT_ROOT = Path(__file__).resolve().parent.parent
_GPU_LOCK = threading.Lock()
DEFAULT_TIMEOUTS = {"run": 60.0, "verify": 60.0, "time": 600.0, "profile_target": 300.0,
                    "ceilings": 300.0}
DEFAULT_MEMORY_LIMIT_MB = 16384
# Task errors that are the task file's fault, not the candidate's behaviour.
_BAD_TASK_KINDS = {"missing_file", "syntax_error", "import_error", "not_a_task", "bad_task"}
ProgressCallback = Callable[..., None]


class TaskRequest:
    def __init__(self, action: str, params: dict, needs_task: bool = True):
        self.action = action
        self.params = params
        paths = []
        if needs_task:
            task = params.get("task")
            if not isinstance(task, str) or not task:
                raise invalid_params(f"{action} needs 'task' (string: path of the task file)")
            paths.append(task)
        others = params.get("compare_with", [])
        if not isinstance(others, list) or not all(isinstance(p, str) for p in others):
            raise invalid_params("'compare_with' must be a list of task paths")
        self.task_paths = [os.path.abspath(path) for path in paths + others]
        for path in self.task_paths:
            if not os.path.isfile(path):
                raise bad_input("missing_file", f"task file not found: {path}", file=path)
        self.timeout_s = _positive(params, "timeout_s", DEFAULT_TIMEOUTS[action])
        self.interpret = params.get("interpret", False)
        if not isinstance(self.interpret, bool):
            raise invalid_params("'interpret' must be true or false")
        self.capture_only = params.get("capture_only", False)
        if not isinstance(self.capture_only, bool):
            raise invalid_params("'capture_only' must be true or false")
        if self.capture_only and self.interpret:
            raise invalid_params("'capture_only' and 'interpret' exclude each other")
        self.memory_limit_mb = self._memory_limit(params)

    def _memory_limit(self, params: dict) -> int | None:
        """RLIMIT_AS only without a GPU: the GPU driver maps far more virtual memory than any
        useful cap, so on a GPU run the cap would only break the driver's initialisation."""
        limit = params.get("memory_limit_mb", DEFAULT_MEMORY_LIMIT_MB)
        if limit is None:
            return None
        if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
            raise invalid_params("'memory_limit_mb' must be a positive integer or null")
        uses_gpu = not self.interpret and not self.capture_only and nvidia_device.gpu_visible()
        return None if uses_gpu else limit

    def where(self) -> dict:
        return {"file": self.task_paths[0] if self.task_paths else None, "kernel": None}


def _positive(params: dict, key: str, default: float) -> float:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise invalid_params(f"'{key}' must be a positive number")
    return float(value)


def worker_env(interpret: bool, capture_only: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_AGENT_ROOT), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    if capture_only:
        # The forward runs on CPU tensors at the task's real shapes; launches are only recorded.
        nvidia_device.hide_gpus(env)
        env.pop("TRITON_INTERPRET", None)
    elif interpret:
        # The interpreter runs on the CPU; hiding the GPUs keeps tasks that pick their device by
        # whether torch sees a GPU on the CPU too (and under the memory cap, which a GPU breaks).
        env["TRITON_INTERPRET"] = "1"
        nvidia_device.hide_gpus(env)
    return env


class TaskWorker:
    """One task_worker process: progress forwarding, timeout, kill, outcome."""

    DEFAULT_COMMAND = [sys.executable, "-m", nvidia.TASK_WORKER_MODULE]

    def __init__(self, request: TaskRequest, progress: ProgressCallback,
                 command_prefix: list[str] | None = None,
                 worker_command: list[str] | None = None):
        self.request = request
        self.progress = progress
        self.command_prefix = command_prefix or []
        # Another backend's worker (the Ascend one runs under triton-ascend's own Python).
        self.worker_command = worker_command or self.DEFAULT_COMMAND
        self.process: subprocess.Popen | None = None
        self.spare = None   # the warm spare that took this call, if one did
        self.other_lines: list[str] = []  # non-progress stdout (a profiler's own lines)
        self.work_dir = Path(tempfile.mkdtemp(prefix=f"strata-task-{request.action}-"))

    def run(self, action: str | None = None) -> tuple[dict | None, int, str]:
        """(outcome or None, exit status, stderr tail)."""
        result_path = self.work_dir / "result.json"
        request_path = self.work_dir / "request.json"
        request_path.write_text(json.dumps({
            "action": action or self.request.action, "task_paths": self.request.task_paths,
            "params": self.request.params, "result_path": str(result_path),
            "memory_limit_mb": self.request.memory_limit_mb}), encoding="utf-8")
        stderr_path = self.work_dir / "stderr.log"
        env = worker_env(self.request.interpret, self.request.capture_only)
        lines = self._start(request_path, stderr_path, env)
        reader = threading.Thread(target=self._forward_progress, args=(lines,), daemon=True)
        reader.start()
        try:
            status = self.process.wait(timeout=self.request.timeout_s)
            kill_leftovers(self.process)   # what the task's module spawned must not outlive it
        except subprocess.TimeoutExpired:
            self.kill()
            reader.join(timeout=5)
            return None, -9, "timeout"
        finally:
            if self.spare is not None:
                self.spare.remove_home()
        reader.join(timeout=5)
        tail = _tail(stderr_path)
        outcome = json.loads(result_path.read_text()) if result_path.is_file() else None
        return outcome, status, tail

    def _start(self, request_path: Path, stderr_path: Path, env: dict[str, str]) -> Iterable[bytes]:
        """Starts the worker: the NVIDIA backend's warm spare when it has one for this
        environment (its Python, torch and triton already loaded), else a cold process. Either
        way the next call's spare starts warming up now. Another backend's worker, or one under
        a profiler's command prefix, always starts cold."""
        plain = not self.command_prefix and self.worker_command == self.DEFAULT_COMMAND
        warm = nvidia.hand_to_task_spare(request_path, self.work_dir, stderr_path, env,
                                         self.request.timeout_s) if plain else None
        if plain:
            nvidia.replenish_task_spare(env)
        if warm is not None:
            self.spare, lines = warm
            self.process = self.spare.process
            self.progress(f"warm task worker (pid {self.process.pid})", worker_pid=self.process.pid,
                          warm_worker=True)
            return lines
        command = self.command_prefix + self.worker_command + [str(request_path)]
        with open(stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.PIPE, stderr=stderr,
                                            cwd=self.work_dir, env=env, start_new_session=True)
        assert self.process.stdout is not None
        return self.process.stdout

    def kill(self) -> None:
        kill_group(self.process)

    def stderr_tail(self) -> str:
        return "\n".join(self.other_lines[-40:] + [_tail(self.work_dir / "stderr.log")])

    def cleanup(self) -> None:
        shutil.rmtree(self.work_dir, ignore_errors=True)

    def _forward_progress(self, lines: Iterable[bytes]) -> None:
        for raw in lines:
            try:
                message = json.loads(raw)
            except ValueError:
                if len(self.other_lines) < 2000:
                    self.other_lines.append(raw.decode("utf-8", "replace").rstrip())
                continue
            if isinstance(message, dict) and "progress" in message:
                extra = {k: v for k, v in message.items() if k != "progress"}
                self.progress(str(message["progress"]), **extra)


def _tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def failure_of(request: TaskRequest, outcome: dict | None, status: int, tail: str) -> dict:
    """What went wrong, as a structured reason (the same shape verify uses)."""
    if tail == "timeout" and outcome is None:
        return {"kind": "timeout", "severity": "fail", "timeout_s": request.timeout_s,
                "message": f"the task worker ran longer than {request.timeout_s:g} s (a hang?) "
                "and was killed"}
    if outcome is None:
        if status < 0:
            name = signal.Signals(-status).name
            return {"kind": "worker_killed", "severity": "fail", "signal": name,
                    "stderr_tail": tail, "message": f"the task worker died of {name}"}
        return {"kind": "worker_crashed", "severity": "fail", "exit_code": status,
                "stderr_tail": tail, "message": f"the task worker exited with status {status} "
                "without a result"}
    error = dict(outcome["error"])
    return {**error, "severity": "fail", "stderr_tail": tail}


def raise_failure(request: TaskRequest, failure: dict) -> None:
    kind = failure["kind"]
    code = {"timeout": TIMEOUT, "worker_killed": WORKER_FAILED,
            "worker_crashed": WORKER_FAILED}.get(kind, BAD_INPUT if kind in _BAD_TASK_KINDS
                                                  else WORKER_FAILED)
    extra = {k: v for k, v in failure.items() if k not in ("kind", "message", "file", "line",
                                                           "severity")}
    raise StrataError(code, kind, failure["message"], file=failure.get("file") or
                      request.where()["file"], line=failure.get("line"), **extra)


def run_worker(request: TaskRequest, progress: ProgressCallback,
               on_worker: Callable[[Any], None] | None = None,
               command_prefix: list[str] | None = None, action: str | None = None,
               keep_dir: bool = False, worker_command: list[str] | None = None
               ) -> tuple[dict | None, dict | None, TaskWorker]:
    """(result, failure, worker). Exactly one of result and failure is set."""
    worker = TaskWorker(request, progress, command_prefix, worker_command)
    with _GPU_LOCK:
        if on_worker:
            on_worker(worker)
        try:
            outcome, status, tail = worker.run(action)
        finally:
            if on_worker:
                on_worker(None)
    if not keep_dir:
        worker.cleanup()
    if outcome is not None and outcome.get("ok"):
        result = outcome["result"]
        result["memory_cap"] = outcome.get("memory_cap")
        return result, None, worker
    return None, failure_of(request, outcome, status, tail), worker


def run_task(params: dict, progress: ProgressCallback, on_worker=None) -> dict:
    request = TaskRequest("run", params)
    result, failure, _ = run_worker(request, progress, on_worker)
    if failure:
        raise_failure(request, failure)
    return {"protocol": PROTOCOL_VERSION, **result}


def verify(params: dict, progress: ProgressCallback, on_worker=None) -> dict:
    request = TaskRequest("verify", params)
    check_glue(params.get("glue"))
    result, failure, _ = run_worker(request, progress, on_worker)
    if failure and failure["kind"] in _BAD_TASK_KINDS:
        raise_failure(request, failure)
    if failure:  # a crash, hang or exception is the candidate's failure: a verdict, not an error
        return {"protocol": PROTOCOL_VERSION, "task": request.task_paths[0], "verdict": "fail",
                "reasons": [failure], "checks": [], "kernels": []}
    return {"protocol": PROTOCOL_VERSION, "task": request.task_paths[0], **result}


def check_glue(glue) -> None:
    """Param `glue` of verify: absent, "initial", or {aten op name: calls per forward}."""
    if glue is None or glue == "initial":
        return
    if isinstance(glue, dict) and all(isinstance(count, int) and not isinstance(count, bool)
                                      and count >= 0 for count in glue.values()):
        return
    raise invalid_params("'glue' must be \"initial\" or an object of aten op names to call "
                         "counts per forward")


def time_task(params: dict, progress: ProgressCallback, on_worker=None) -> dict:
    request = TaskRequest("time", params)
    result, failure, _ = run_worker(request, progress, on_worker)
    if failure:
        raise_failure(request, failure)
    return {"protocol": PROTOCOL_VERSION, **result}


def ceilings(params: dict, progress: ProgressCallback, on_worker=None) -> dict:
    request = TaskRequest("ceilings", params, needs_task=False)
    result, failure, _ = run_worker(request, progress, on_worker)
    if failure:
        raise_failure(request, failure)
    return {"protocol": PROTOCOL_VERSION, **result}
