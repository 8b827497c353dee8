"""The NVIDIA compile worker: one Triton compile for an sm_* target in its own process (run by
backends/nvidia/compile.py).

Usage: python -m strata_agent.backends.nvidia.compile_worker REQUEST.json
       python -m strata_agent.backends.nvidia.compile_worker --spare [--arch 90] [--preload=torch]

A spare (warm_worker.py) warms up first and then waits on stdin for the request's handover.

The request names source_path, kernel, a normalized spec, work_dir and result_path. The worker
writes the stage artifacts (ttir, ttgir, llir, ptx, cubin, ptxas.log) into work_dir and a result
file: {"ok": true, "metadata", "artifacts"} or {"ok": false, "error": {"code", "kind", "message",
"file", "line", "kernel", ...}}. Stage markers on stderr (mark_stages) assign the pass dumps to
the pipeline that ran them; the kernel import, spec checks and front-end errors are the core
Worker's (strata_agent/compile_worker.py).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import traceback
from pathlib import Path
from typing import Any, TextIO

from ...compile_worker import STAGE_MARKER, Worker, json_safe_metadata, open_progress_channel
from ...errors import COMPILE_ERROR, StrataError
from ...spec import compile_arguments, target_capability

TEXT_STAGES = ("ttir", "ttgir", "llir", "ptx")


class NvidiaWorker(Worker):
    """One compile for Triton's CUDA backend: every stage saved as it is produced, ptxas's log
    kept, a ptxas rejection traced back to the Python line."""

    def run(self) -> dict[str, Any]:
        jit_function = self.load_kernel()
        compiled, ptxas_log = self.compile(jit_function)
        return {"ok": True, "artifacts": self.write_artifacts(compiled, ptxas_log),
                "metadata": json_safe_metadata(compiled.metadata)}

    def compile(self, jit_function: Any) -> tuple[Any, str]:
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource

        signature, constexprs, attrs = compile_arguments(self.spec, jit_function.arg_names)
        source = ASTSource(jit_function, signature, constexprs, attrs)
        target = GPUTarget("cuda", target_capability(self.spec["target"]), 32)
        self.check_option_names(target)
        self.report("compiling", target=self.spec["target"])
        captured_stdout = io.StringIO()
        with mark_stages(self.report, self.save_stage), \
                contextlib.redirect_stdout(captured_stdout):
            try:
                compiled = triton.compile(source, target=target, options=self.spec["options"])
            except Exception as error:
                raise self.compile_failure(error) from error
        return compiled, captured_stdout.getvalue()

    def compile_failure(self, error: Exception) -> StrataError:
        if type(error).__name__ == "PTXASError":
            return self.ptxas_failure(str(error))
        return super().compile_failure(error)

    def ptxas_failure(self, message: str) -> StrataError:
        """ptxas names a PTX line; the `.loc` before it names the Python line."""
        match = re.search(r"\.ptx, line (\d+); error", message)
        ptx_path = self.work_dir / f"{self.kernel}.ptx"
        file, line, ptx_line = self.source_path, None, None
        if match and ptx_path.is_file():
            ptx_line = int(match.group(1))
            file, line = ptx_source_location(ptx_path.read_text(encoding="utf-8"), ptx_line,
                                             self.source_path)
        first_error = next((text.strip() for text in message.splitlines()
                            if "error" in text and text.startswith("ptxas")), message)
        return StrataError(COMPILE_ERROR, "ptxas_error", f"ptxas rejected the PTX: {first_error}",
                           file=file, line=line, kernel=self.kernel, ptx_line=ptx_line,
                           ptxas_output=message)

    def save_stage(self, stage: str, output: Any) -> None:
        """Each stage's output is written as soon as it exists, so a later failure keeps it."""
        if stage in TEXT_STAGES and isinstance(output, str):
            self.write(f"{self.kernel}.{stage}", output)
        elif stage == "cubin" and isinstance(output, bytes):
            self.write(f"{self.kernel}.cubin", output)

    def write_artifacts(self, compiled: Any, ptxas_log: str) -> dict[str, str]:
        written = {}
        for stage in (*TEXT_STAGES, "cubin"):
            if stage in compiled.asm:
                self.save_stage(stage, compiled.asm[stage])
                written[stage] = str(self.work_dir / f"{self.kernel}.{stage}")
        written["ptxas_log"] = self.write("ptxas.log", ptxas_log)
        return written


_PTX_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]+)"')
_PTX_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+")


def ptx_source_location(ptx: str, ptx_line: int, default_file: str) -> tuple[str, int | None]:
    """The source file and line of the last `.loc` at or before PTX line `ptx_line` (1-based)."""
    lines = ptx.splitlines()
    files = {match.group(1): match.group(2) for text in lines if (match := _PTX_FILE.match(text))}
    for text in reversed(lines[:ptx_line]):
        if match := _PTX_LOC.match(text):
            return files.get(match.group(1), default_file), int(match.group(2))
    return default_file, None


@contextlib.contextmanager
def mark_stages(report: Any, save: Any):
    """Writes a marker to stderr as each backend stage starts, so pass dumps can be assigned to
    the pipeline (ttir, ttgir, llir, ...) that ran them. fd 2 is unbuffered on both the C++ and
    this side, so the marker lands exactly between the dumps."""
    import triton.compiler.compiler as compiler_module
    original_make_backend = compiler_module.make_backend

    def make_backend(target):
        backend = original_make_backend(target)
        original_add_stages = backend.add_stages

        def add_stages(stages, options, language):
            original_add_stages(stages, options, language)
            for stage_name in list(stages):
                stages[stage_name] = _marked(stage_name, stages[stage_name], report, save)
        backend.add_stages = add_stages
        return backend

    compiler_module.make_backend = make_backend
    try:
        yield
    finally:
        compiler_module.make_backend = original_make_backend


def _marked(stage_name: str, stage_function: Any, report: Any, save: Any) -> Any:
    def run_stage(source, metadata):
        sys.stderr.flush()
        os.write(2, (STAGE_MARKER.format(stage=stage_name) + "\n").encode())
        report(f"running stage {stage_name}", stage=stage_name)
        output = stage_function(source, metadata)
        save(stage_name, output)  # text and binary outputs; MLIR modules wait for compiled.asm
        return output
    return run_stage


def main(argv: list[str]) -> int:
    from .spare import request_path_of
    progress = open_progress_channel()
    request_path = request_path_of(argv, progress)
    if request_path is None:
        return 0          # the agent went away, or dropped this spare, before a request
    return compile_request(request_path, progress)


def compile_request(request_path: str, progress: TextIO) -> int:
    request = json.loads(Path(request_path).read_text(encoding="utf-8"))
    worker = NvidiaWorker(request, progress)
    try:
        result = worker.run()
    except StrataError as error:
        result = {"ok": False, "error": {"code": error.code, **error.data}}
    except Exception as error:  # a bug in the worker itself: report it, never a bare crash
        traceback.print_exc()
        result = {"ok": False, "error": {"code": COMPILE_ERROR, "kind": "internal_error",
                                         "message": f"{type(error).__name__}: {error}",
                                         **worker.where()}}
    result["heavy_modules"] = heavy_modules_loaded()
    Path(request["result_path"]).write_text(json.dumps(result), encoding="utf-8")
    return 0


def heavy_modules_loaded() -> list[str]:
    """The preloadable modules this process has imported, so the agent's next spares can import
    them ahead of the request."""
    from .spare import PRELOADABLE_MODULES
    return [name for name in PRELOADABLE_MODULES if name in sys.modules]


if __name__ == "__main__":
    sys.exit(main(sys.argv))
