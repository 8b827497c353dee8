"""Method `compile` for NVIDIA targets: runs backends/nvidia/compile_worker in a subprocess (a
warm spare when one is ready) with a timeout, then assembles the result (pass dumps, remarks,
SASS, ptxas figures) and writes compile.json into the work dir."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from ... import PROTOCOL_VERSION
from ...artifacts import file_ref, portable_result, write_json_atomically
from ...ast_json import parse_source_file
from ...compile_runner import (STDERR_FILE, ProgressCallback, WorkerProcess, check_param_types,
                               collect_stream, prepare_work_dir, run_worker, worker_error,
                               write_log, write_worker_request)
from ...dumps import SplitStream
from ...errors import COMPILE_ERROR, TIMEOUT, WORKER_FAILED, StrataError
from ...process_group import kill_leftovers
from ...spec import normalize_spec, target_capability
from ...tools import triton_package_dir
from .ptxas import parse_ptxas_log
from .tools import ToolError, disassemble, resource_usage
from .warm_worker import SPARES, SpareWorker

_AGENT_ROOT = Path(__file__).resolve().parents[3]
WORKER_MODULE = "strata_agent.backends.nvidia.compile_worker"
TRACE_FILE = "compile.trace"
# LLVM_DEBUG channels that say why the compiler decided: pointer axis info and the vector width
# each access gets (coalesce, axis-info) and why a load was or was not pipelined.
DEBUG_TRACE_CHANNELS = "axis-info,tritongpu-coalesce,triton-loop-pipeline"


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


class NvidiaWorkerProcess(WorkerProcess):
    """One compile_worker run: a warm spare or a cold start, progress forwarding, timeout, and
    the outcome."""

    def __init__(self, request: CompileRequest, progress: ProgressCallback):
        super().__init__(request, progress)
        self.spare: SpareWorker | None = None

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
                [sys.executable, "-m", WORKER_MODULE, str(request_path)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                cwd=self.request.work_dir, env=env, start_new_session=True)
        deadline = time.monotonic() + self.request.timeout_s
        self.progress(f"worker started (pid {self.process.pid})", worker_pid=self.process.pid,
                      warm_worker=False)
        assert self.process.stdout is not None
        return self.process.stdout, deadline


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


def run_nvidia_compile(params: dict, progress: ProgressCallback,
                       on_worker: Callable[[WorkerProcess | None], None] | None = None) -> dict:
    """The whole `compile` method for NVIDIA targets. Raises RpcError subclasses for every
    failure."""
    started = time.monotonic()
    request = CompileRequest(params)
    prepare_work_dir(request)
    request_path, result_path = write_worker_request(request)
    worker = NvidiaWorkerProcess(request, progress)
    return_code = run_worker(
        worker, request_path, lambda cache_dir: worker_env(cache_dir, request.dump_passes),
        "strata-triton-cache-", on_worker,
        keep_partial=lambda: write_log(request.work_dir, collect_stream(request.work_dir)))
    progress("collecting artifacts")
    stream = collect_stream(request.work_dir)
    outcome = read_worker_outcome(request, result_path, return_code, stream)
    return assemble_result(request, outcome, time.monotonic() - started)


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
