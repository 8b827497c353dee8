"""`compile` for an Ascend target, agent side: checks the request, runs backends/ascend/worker.py
under the Python that has triton-ascend (environment.py) with a timeout, and assembles the
result in the shape of NVIDIA's (backends/nvidia/compile.py), written to work_dir/compile.json the
same way.

Differences from an NVIDIA result: `backend: "ascend"`; the artifacts are ttir, ttadapter (and
npubin where bishengir-compile ran); `stages` lists each stage as ran or skipped, with why;
pass dumps after the TTIR ones are `kind: "after"` (passes.py); `metadata` carries `mix_mode`
("aiv" or "mix"); there is no `ptxas`. No warm spare: the NVIDIA spare's Python cannot import
triton-ascend.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from ... import PROTOCOL_VERSION
from ...artifacts import file_ref, portable_result, write_json_atomically
from ...ast_json import parse_source_file
from ...compile_runner import (STDERR_FILE, WorkerProcess, check_param_types, collect_stream,
                               prepare_work_dir, run_worker, worker_error, write_log,
                               write_worker_request)
from ...dumps import SplitStream
from ...errors import TIMEOUT, WORKER_FAILED, StrataError
from ...process_group import kill_leftovers
from ...spec import normalize_spec
from .compiler_crash import signal_name
from .environment import require_ascend_python
from .passes import adopt_tree, split_after_all
from .targets import ASCEND_TARGETS, DEFAULT_ASCEND_TARGET
from .worker import ADAPTER_DUMP_DIR, NPUBIN_DUMP_FILE

ProgressCallback = Callable[..., None]
_AGENT_ROOT = Path(__file__).resolve().parents[3]


class AscendCompileRequest:
    """The checked params of one Ascend `compile` (the same fields as NVIDIA's CompileRequest)."""

    def __init__(self, params: dict):
        check_param_types(params)
        self.source_path = os.path.abspath(params["source_path"])
        self.timeout_s = float(params.get("timeout_s", 120))
        self.dump_passes = params.get("pass_dumps", True)
        self.spec_path = params.get("spec_path")
        self.spec = checked_spec(params, self.source_path)
        self.target = self.spec["target"]
        self.kernel = self.spec["kernel"]
        parse_source_file(self.source_path, self.kernel)
        self.python = require_ascend_python(self.source_path, self.kernel)
        given_dir = params.get("work_dir")
        self.work_dir = (Path(given_dir).resolve() if given_dir
                         else Path(tempfile.mkdtemp(prefix=f"strata-{self.kernel}-")))

    def where(self) -> dict[str, Any]:
        return {"file": self.source_path, "kernel": self.kernel}


def checked_spec(params: dict, source_path: str) -> dict:
    """The normalized spec, its target checked against the Ascend targets."""
    spec = params["spec"]
    target = params.get("target") or (spec.get("target") if isinstance(spec, dict) else None)
    return normalize_spec(spec, params.get("kernel"), target, source_path, params.get("spec_path"),
                          supported_targets=list(ASCEND_TARGETS), default_target=DEFAULT_ASCEND_TARGET)


class AscendWorkerProcess(WorkerProcess):
    """A cold worker under the Ascend Python: progress forwarding, timeout and kill as
    compile_runner's WorkerProcess, which the server tracks and kills on shutdown."""

    def run(self, request_path: Path, env: dict[str, str]) -> int:
        with open(self.request.work_dir / STDERR_FILE, "wb") as stderr:
            self.process = subprocess.Popen(
                [self.request.python, "-m", "strata_agent.backends.ascend.worker",
                 str(request_path)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=stderr, cwd=self.request.work_dir, env=env, start_new_session=True)
        self.progress(f"worker started (pid {self.process.pid})", worker_pid=self.process.pid,
                      warm_worker=False, python=self.request.python)
        self._forward_in_background()
        try:
            return_code = self.process.wait(timeout=self.request.timeout_s)
        except subprocess.TimeoutExpired:
            self.kill()
            raise StrataError(TIMEOUT, "timeout", f"compile of '{self.request.kernel}' took longer "
                              f"than {self.request.timeout_s:g} s (last stage started: "
                              f"{self.last_stage or 'none'})", **self.request.where(),
                              timeout_s=self.request.timeout_s, last_stage=self.last_stage,
                              work_dir=str(self.request.work_dir))
        kill_leftovers(self.process)
        self.reader.join(timeout=5)
        return return_code

    def _forward_in_background(self) -> None:
        self.reader = threading.Thread(target=self._forward_progress,
                                       args=(self.process.stdout,), daemon=True)
        self.reader.start()


def ascend_worker_env(cache_dir: str, dump_passes: bool) -> dict[str, str]:
    env = dict(os.environ)
    # TRITON_DEBUG adds overflow device_asserts, which change the TTIR (ASCEND-NOTES section 1).
    for inherited in ("MLIR_DUMP_PATH", "TRITON_KERNEL_DUMP", "TRITON_KERNEL_OVERRIDE",
                      "TRITON_DEBUG"):
        env.pop(inherited, None)
    env.update({"TRITON_CACHE_DIR": cache_dir, "TRITON_ALWAYS_COMPILE": "1",
                # Line info on: ttadapter keeps loc() and bishengir gets --enable-debug-info.
                "TRITON_DISABLE_LINE_INFO": "0",
                "MLIR_ENABLE_DIAGNOSTICS": "remarks,warnings", "PYTHONUNBUFFERED": "1"})
    if dump_passes:
        env["MLIR_ENABLE_DUMP"] = "1"
    else:
        env.pop("MLIR_ENABLE_DUMP", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_AGENT_ROOT), env.get("PYTHONPATH")]))
    return env


def run_ascend_compile(params: dict, progress: ProgressCallback,
                       on_worker: Callable[[WorkerProcess | None], None] | None = None) -> dict:
    started = time.monotonic()
    request = AscendCompileRequest(params)
    prepare_work_dir(request)
    shutil.rmtree(request.work_dir / ADAPTER_DUMP_DIR, ignore_errors=True)
    request_path, result_path = write_worker_request(request, pass_dumps=request.dump_passes)
    worker = AscendWorkerProcess(request, progress)
    return_code = run_worker(
        worker, request_path, lambda cache_dir: ascend_worker_env(cache_dir, request.dump_passes),
        "strata-triton-ascend-cache-", on_worker,
        keep_partial=lambda: collect_passes(request.work_dir))
    progress("collecting artifacts")
    stream = collect_passes(request.work_dir)
    outcome = read_outcome(request, result_path, return_code, stream, worker.last_stage)
    return assemble_result(request, outcome, stream, time.monotonic() - started)


def collect_passes(work_dir: Path) -> SplitStream:
    """TTIR dumps from the worker's stderr, then the adapter's and bishengir's after-pass dumps;
    writes compile.log."""
    stream = collect_stream(work_dir)
    passes_dir = work_dir / "passes"
    tree = work_dir / ADAPTER_DUMP_DIR
    if tree.is_dir():
        stream.dumps += adopt_tree(tree, passes_dir, len(stream.dumps), "ttadapter")
    npubin_log = work_dir / NPUBIN_DUMP_FILE
    if npubin_log.is_file():
        with open(npubin_log, encoding="utf-8", errors="replace") as lines:
            dumps, messages = split_after_all(lines, passes_dir, len(stream.dumps), "hivm")
        stream.dumps += dumps
        stream.log_lines += messages
        npubin_log.unlink()
    write_log(work_dir, stream)
    return stream


def read_outcome(request: AscendCompileRequest, result_path: Path, return_code: int,
                 stream: SplitStream, last_stage: str | None) -> dict:
    if not result_path.is_file():
        where = {**request.where(), "stage": last_stage, "work_dir": str(request.work_dir),
                 "stderr_tail": "\n".join(stream.log_lines[-40:])}
        if return_code < 0:
            name = signal_name(return_code)
            raise StrataError(WORKER_FAILED, "worker_killed", f"compile worker was killed by "
                              f"{name} (stage {last_stage or 'none'})", signal=name, **where)
        raise StrataError(WORKER_FAILED, "worker_crashed", f"compile worker exited with status "
                          f"{return_code} without a result", exit_code=return_code, **where)
    outcome = json.loads(result_path.read_text(encoding="utf-8"))
    result_path.unlink()
    if not outcome.get("ok"):
        error = worker_error(request, outcome["error"], stream)
        # A crashed or failing tool's own stderr, not the compile log's tail.
        error.data["stderr_tail"] = outcome["error"].get("stderr_tail", error.data["stderr_tail"])
        error.data["stages"] = outcome.get("stages", [])
        raise error
    return outcome


def assemble_result(request: AscendCompileRequest, outcome: dict, stream: SplitStream,
                    duration_s: float) -> dict:
    work_dir = request.work_dir
    paths = {key: Path(path) for key, path in outcome["artifacts"].items()
             if Path(path).is_file()}
    paths["source"] = work_dir / "source.py"
    paths["compile_log"] = work_dir / "compile.log"
    result = {
        "protocol": PROTOCOL_VERSION,
        "backend": "ascend",
        "kernel": request.kernel,
        "source_path": request.source_path,
        "target": request.target,
        "work_dir": str(work_dir),
        "spec": request.spec,
        "duration_s": round(duration_s, 3),
        "artifacts": {key: file_ref(path) for key, path in sorted(paths.items())},
        "pass_dumps": [{**dump.to_json(), **file_ref(dump.path)} for dump in stream.dumps],
        "remarks": [diagnostic.to_json() for diagnostic in stream.diagnostics],
        "stages": outcome["stages"],
        "metadata": outcome["metadata"],
        "python": request.python,
    }
    write_json_atomically(work_dir / "compile.json", portable_result(result, work_dir))
    return result
