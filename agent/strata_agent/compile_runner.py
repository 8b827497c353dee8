"""Method `compile`: runs compile_worker in a subprocess with a timeout, then assembles the result
(pass dumps, remarks, SASS, ptxas figures) and writes compile.json into the work dir."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from . import PROTOCOL_VERSION
from .artifacts import file_ref, portable_result, write_json_atomically
from .ast_json import parse_source_file
from .backends import run_compile as run_on_backend
from .dumps import SplitStream, iter_errors, split_stream_file
from .errors import (COMPILE_ERROR, TIMEOUT, WORKER_FAILED, StrataError, invalid_params)
from .ptxas import parse_ptxas_log
from .process_group import kill_group, kill_leftovers
from .spec import normalize_spec, target_capability
from .tools import ToolError, disassemble, resource_usage, triton_package_dir
from .warm_worker import SPARES, SpareWorker

ProgressCallback = Callable[..., None]  # (message, **extra fields)
_AGENT_ROOT = Path(__file__).resolve().parent.parent
STDERR_FILE = "compile.stderr"
TRACE_FILE = "compile.trace"
# LLVM_DEBUG channels that say why the compiler decided: pointer axis info and the vector width
# each access gets (coalesce, axis-info) and why a load was or was not pipelined.
DEBUG_TRACE_CHANNELS = "axis-info,tritongpu-coalesce,triton-loop-pipeline"
LOG_FILE = "compile.log"


class CompileRequest:
    """The checked params of one `compile` request."""

    def __init__(self, params: dict):
        check_param_types(params)
        if triton_package_dir() is None:
            raise StrataError(COMPILE_ERROR, "triton_missing", f"triton is not installed for "
                              f"{sys.executable}", file=params["source_path"],
                              kernel=params.get("kernel"))
        self.source_path = os.path.abspath(params["source_path"])
        self.timeout_s = float(params.get("timeout_s", 120))
        self.dump_passes = params.get("pass_dumps", True)
        # The spec file the client read, if any: spec errors name it (and the key's line).
        self.spec_path = params.get("spec_path")
        self.spec = normalize_spec(params["spec"], params.get("kernel"), params.get("target"),
                                   self.source_path, self.spec_path)
        self.kernel = self.spec["kernel"]
        # Missing file and syntax errors are answered here, before a worker starts.
        parse_source_file(self.source_path, self.kernel)
        given_dir = params.get("work_dir")
        self.work_dir = (Path(given_dir).resolve() if given_dir
                         else Path(tempfile.mkdtemp(prefix=f"strata-{self.kernel}-")))

    def where(self) -> dict[str, Any]:
        return {"file": self.source_path, "kernel": self.kernel}


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
    """One compile_worker run: a warm spare or a cold start, progress forwarding, timeout, and
    the outcome."""

    def __init__(self, request: CompileRequest, progress: ProgressCallback):
        self.request = request
        self.progress = progress
        self.process: subprocess.Popen | None = None
        self.spare: SpareWorker | None = None
        self.last_stage: str | None = None

    def run(self, request_path: Path, env: dict[str, str]) -> int:
        stderr_path = self.request.work_dir / STDERR_FILE
        lines, deadline = self.start_warm(request_path, stderr_path, env) or \
            self.start_cold(request_path, stderr_path, env)
        # The next compile's spare warms up on the other core while this one compiles.
        SPARES.replenish(env, target_capability(self.request.spec["target"]))
        reader = threading.Thread(target=self._forward_progress, args=(lines,), daemon=True)
        reader.start()
        try:
            return_code = self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            left = kill_leftovers(self.process)
            if left:
                self.progress(f"killed {left} process(es) the kernel module left running")
        except subprocess.TimeoutExpired:
            self.kill()
            reader.join(timeout=5)
            raise StrataError(TIMEOUT, "timeout", f"compile of '{self.request.kernel}' took longer "
                              f"than {self.request.timeout_s:g} s (last stage started: "
                              f"{self.last_stage or 'none'})", **self.request.where(),
                              timeout_s=self.request.timeout_s, last_stage=self.last_stage,
                              work_dir=str(self.request.work_dir))
        finally:
            if self.spare is not None:
                self.spare.remove_home()
        reader.join(timeout=5)
        return return_code

    def start_warm(self, request_path: Path, stderr_path: Path,
                   env: dict[str, str]) -> tuple[Iterable[bytes], float] | None:
        """Hands the request to the spare; None when there is none or it did not take it (the
        caller then starts cold, with the whole timeout). The timeout counts from the handover,
        as a cold one counts from Popen."""
        spare = SPARES.take(env)
        if spare is None:
            return None
        was_ready = spare.ready.is_set()
        deadline = time.monotonic() + self.request.timeout_s
        self.process = spare.process   # a shutdown during the handover kills it too
        if not spare.hand_over(request_path, self.request.work_dir, stderr_path, env, deadline):
            self.process = None
            return None
        self.spare = spare
        self.progress(f"warm worker (pid {spare.pid})", worker_pid=spare.pid, warm_worker=True,
                      spare_was_ready=was_ready)
        return spare.progress_lines(), deadline

    def start_cold(self, request_path: Path, stderr_path: Path,
                   env: dict[str, str]) -> tuple[Iterable[bytes], float]:
        with open(stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "strata_agent.compile_worker", str(request_path)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                cwd=self.request.work_dir, env=env, start_new_session=True)
        deadline = time.monotonic() + self.request.timeout_s
        self.progress(f"worker started (pid {self.process.pid})", worker_pid=self.process.pid,
                      warm_worker=False)
        assert self.process.stdout is not None
        return self.process.stdout, deadline

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


def worker_env(cache_dir: str, dump_passes: bool) -> dict[str, str]:
    env = dict(os.environ)
    for inherited in ("MLIR_DUMP_PATH", "TRITON_KERNEL_DUMP", "TRITON_KERNEL_OVERRIDE"):
        env.pop(inherited, None)
    env.update({
        "TRITON_CACHE_DIR": cache_dir,
        "TRITON_ALWAYS_COMPILE": "1",
        "MLIR_ENABLE_DIAGNOSTICS": "remarks,warnings",
        "TRITON_DUMP_PTXAS_LOG": "1",
        "TRITON_LLVM_DEBUG_ONLY": DEBUG_TRACE_CHANNELS,
        "PYTHONUNBUFFERED": "1",
    })
    if dump_passes:
        env["MLIR_ENABLE_DUMP"] = "1"
    else:
        env.pop("MLIR_ENABLE_DUMP", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_AGENT_ROOT), env.get("PYTHONPATH")]))
    return env


def prepare_work_dir(request: CompileRequest) -> None:
    request.work_dir.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(request.work_dir / "passes", ignore_errors=True)
    shutil.copyfile(request.source_path, request.work_dir / "source.py")


def run_compile(params: dict, progress: ProgressCallback,
                on_worker: Callable[[WorkerProcess | None], None] | None = None) -> dict:
    """The `compile` method: the target's backend compiles (backends/__init__.py); NVIDIA's
    targets come back to run_nvidia_compile."""
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


def run_nvidia_compile(params: dict, progress: ProgressCallback,
                       on_worker: Callable[[WorkerProcess | None], None] | None = None) -> dict:
    """The whole `compile` method for NVIDIA targets. Raises RpcError subclasses for every
    failure."""
    started = time.monotonic()
    request = CompileRequest(params)
    prepare_work_dir(request)
    request_path, result_path = write_worker_request(request)
    worker = WorkerProcess(request, progress)
    return_code = run_worker(
        worker, request_path, lambda cache_dir: worker_env(cache_dir, request.dump_passes),
        "strata-triton-cache-", on_worker,
        keep_partial=lambda: write_log(request.work_dir, collect_stream(request.work_dir)))
    progress("collecting artifacts")
    stream = collect_stream(request.work_dir)
    outcome = read_worker_outcome(request, result_path, return_code, stream)
    return assemble_result(request, outcome, time.monotonic() - started)


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


def read_worker_outcome(request: CompileRequest, result_path: Path, return_code: int,
                        stream: SplitStream) -> dict:
    if not result_path.is_file():
        write_log(request.work_dir, stream)
        log_tail = "\n".join(stream.log_lines[-40:])
        if return_code < 0:
            name = signal.Signals(-return_code).name
            raise StrataError(WORKER_FAILED, "worker_killed", f"compile worker was killed by "
                              f"{name}", **request.where(), signal=name, stderr_tail=log_tail)
        raise StrataError(WORKER_FAILED, "worker_crashed", f"compile worker exited with status "
                          f"{return_code} without a result", **request.where(),
                          exit_code=return_code, stderr_tail=log_tail)
    outcome = json.loads(result_path.read_text(encoding="utf-8"))
    result_path.unlink()
    SPARES.remember_modules(outcome.pop("heavy_modules", []))
    if not outcome.get("ok"):
        write_log(request.work_dir, stream)
        raise worker_error(request, outcome["error"], stream)
    outcome["stream"] = stream
    return outcome


def worker_error(request: CompileRequest, error: dict, stream) -> StrataError:
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


def assemble_result(request: CompileRequest, outcome: dict, duration_s: float) -> dict:
    work_dir = request.work_dir
    stream = outcome.pop("stream")
    paths = {key: Path(path) for key, path in outcome["artifacts"].items()}
    paths["source"] = work_dir / "source.py"
    resource_text = ""
    if "cubin" in paths:
        sass_path = paths["cubin"].with_suffix(".sass")
        try:
            sass_path.write_text(disassemble(paths["cubin"]), encoding="utf-8")
            paths["sass"] = sass_path
            resource_text = resource_usage(paths["cubin"])
        except ToolError as error:
            stream.log_lines.append(f"strata-agent: {error}")
    paths["compile_log"] = write_log(work_dir, stream)
    if stream.trace_lines:
        paths["debug_trace"] = work_dir / TRACE_FILE
        paths["debug_trace"].write_text("\n".join(stream.trace_lines) + "\n", encoding="utf-8")
    ptxas_log = _read_text(paths["ptxas_log"]) if "ptxas_log" in paths else ""
    result = {
        "protocol": PROTOCOL_VERSION,
        "kernel": request.kernel,
        "source_path": request.source_path,
        "target": request.spec["target"],
        "work_dir": str(work_dir),
        "spec": request.spec,
        "duration_s": round(duration_s, 3),
        "artifacts": {key: file_ref(path) for key, path in sorted(paths.items())},
        "pass_dumps": [{**dump.to_json(), **file_ref(dump.path)} for dump in stream.dumps],
        "remarks": [diagnostic.to_json() for diagnostic in stream.diagnostics],
        "ptxas": parse_ptxas_log(ptxas_log, resource_text),
        "metadata": outcome["metadata"],
    }
    # The reply names absolute paths (the caller reads them where they are); the folder's own
    # compile.json names them relative to it, so the folder can be copied or archived whole.
    write_json_atomically(work_dir / "compile.json", portable_result(result, work_dir))
    return result


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
