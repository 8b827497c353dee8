"""Method `compile`, the part every backend shares: the request's parameter checks, the worker
process a backend runs the compile in (progress, kill), its request file, its Triton cache and
timeout bookkeeping, the split of its stderr into pass dumps and a log, and its errors. The
target's backend (backends/__init__.py) runs the compile itself: backends/nvidia/compile.py,
backends/ascend/compile.py."""
from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from .backends import run_compile as run_on_backend
from .dumps import SplitStream, iter_errors, split_stream_file
from .errors import COMPILE_ERROR, StrataError, invalid_params
from .process_group import kill_group

ProgressCallback = Callable[..., None]  # (message, **extra fields)
STDERR_FILE = "compile.stderr"
LOG_FILE = "compile.log"


def check_param_types(params: Any) -> None:
    """JSON-RPC invalid params (-32602): missing or mistyped request fields."""
    if not isinstance(params, dict):
        raise invalid_params("compile params must be an object")
    source_path = params.get("source_path")
    if not isinstance(source_path, str) or not source_path:
        raise invalid_params("compile needs 'source_path' (string)")
    if "spec" not in params:
        raise invalid_params("compile needs 'spec' (object)")
    for key in ("kernel", "target", "work_dir", "spec_path"):
        if params.get(key) is not None and not isinstance(params[key], str):
            raise invalid_params(f"'{key}' must be a string")
    timeout = params.get("timeout_s", 120)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        raise invalid_params("'timeout_s' must be a positive number")
    if not isinstance(params.get("pass_dumps", True), bool):
        raise invalid_params("'pass_dumps' must be true or false")


class WorkerProcess:
    """One compile worker process of a backend: progress forwarding and kill, which the server
    uses on shutdown. A backend's subclass starts it (`run(request_path, env)` -> return code)."""

    def __init__(self, request: Any, progress: ProgressCallback):
        self.request = request
        self.progress = progress
        self.process: subprocess.Popen | None = None
        self.last_stage: str | None = None

    def kill(self) -> None:
        kill_group(self.process)

    def _forward_progress(self, lines: Iterable[bytes]) -> None:
        for raw in lines:
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if isinstance(message, dict) and "progress" in message:
                extra = {key: value for key, value in message.items() if key != "progress"}
                if "stage" in extra:
                    self.last_stage = extra["stage"]
                self.progress(str(message["progress"]), **extra)


def prepare_work_dir(request: Any) -> None:
    request.work_dir.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(request.work_dir / "passes", ignore_errors=True)
    shutil.copyfile(request.source_path, request.work_dir / "source.py")


def run_compile(params: dict, progress: ProgressCallback,
                on_worker: Callable[[WorkerProcess | None], None] | None = None) -> dict:
    """The `compile` method: the target's backend compiles (backends/__init__.py)."""
    return run_on_backend(params, progress, on_worker)


def write_worker_request(request: Any, **extra: Any) -> tuple[Path, Path]:
    """The worker's request file in the work dir, and where its result will be written."""
    request_path = request.work_dir / ".strata-worker-request.json"
    result_path = request.work_dir / ".strata-worker-result.json"
    result_path.unlink(missing_ok=True)
    request_path.write_text(json.dumps({
        "source_path": request.source_path, "spec": request.spec, "spec_path": request.spec_path,
        "work_dir": str(request.work_dir), "result_path": str(result_path), **extra}),
        encoding="utf-8")
    return request_path, result_path


def run_worker(worker: Any, request_path: Path, make_env: Callable[[str], dict[str, str]],
               cache_prefix: str, on_worker: Callable | None,
               keep_partial: Callable[[], Any]) -> int:
    """Runs one compile worker with a Triton cache of its own (removed after): the worker's
    return code. On a StrataError (timeout, crash) `keep_partial` saves what the worker dumped
    before the error is raised on. `on_worker` sees the worker while it runs (shutdown kills
    it)."""
    if on_worker:
        on_worker(worker)
    cache_dir = tempfile.mkdtemp(prefix=cache_prefix)
    try:
        return worker.run(request_path, make_env(cache_dir))
    except StrataError:
        keep_partial()
        raise
    finally:
        if on_worker:
            on_worker(None)
        shutil.rmtree(cache_dir, ignore_errors=True)
        request_path.unlink(missing_ok=True)


def collect_stream(work_dir: Path) -> SplitStream:
    """Splits the worker's stderr into passes/ and drops the raw file (it repeats every dump)."""
    shutil.rmtree(work_dir / "passes", ignore_errors=True)
    stream = split_stream_file(work_dir / STDERR_FILE, work_dir / "passes")
    (work_dir / STDERR_FILE).unlink(missing_ok=True)
    return stream


def write_log(work_dir: Path, stream: SplitStream) -> Path:
    log_text = "\n".join(stream.log_lines).strip("\n")
    path = work_dir / LOG_FILE
    path.write_text(log_text + "\n" if log_text else "", encoding="utf-8")
    return path


def worker_error(request: Any, error: dict, stream) -> StrataError:
    data = dict(error)
    code = data.pop("code", COMPILE_ERROR)
    kind = data.pop("kind")
    message = data.pop("message")
    errors = list(iter_errors(stream.diagnostics))
    if errors and data.get("line") is None:
        # A pass failure names no line in Python; the C++ diagnostics on stderr do.
        first = errors[0]
        data["file"] = first.file or data.get("file")
        data["line"] = first.line if first.line is not None else data.get("line")
        data["column"] = first.column
        data["diagnostics"] = [diagnostic.to_json() for diagnostic in stream.diagnostics
                               if diagnostic.severity in ("error", "note")][:20]
        if kind == "pass_failed":
            message = f"{message}: {first.message}"
    if kind == "pass_failed" and stream.dumps:
        failing = stream.dumps[-1]
        data["failed_pass"] = {"pass": failing.pass_name, "argument": failing.argument,
                               "stage": failing.stage}
    data["stderr_tail"] = "\n".join(stream.log_lines[-40:])
    data["work_dir"] = str(request.work_dir)
    return StrataError(code, kind, message, **data)
