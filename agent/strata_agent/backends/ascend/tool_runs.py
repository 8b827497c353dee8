"""The compiler tools triton-ascend's stages start, seen and steered from the worker.

The ttadapter stage runs `triton-adapter-opt` and the npubin stage `bishengir-compile`, each with
`subprocess.run(..., capture_output=True, check=True)` from triton/backends/ascend/compiler.py.
For the time of a stage that module's `subprocess` is replaced by ToolRunner, which
  - adds the dump flags to the tool's own command, so the pass dumps are of the very run whose
    output the compile keeps (not of a second run with a copied pass list):
      triton-adapter-opt: --mlir-print-ir-after-all --mlir-print-ir-tree-dir=DIR
      bishengir-compile:  --mlir-print-ir-after-all (forwarded to hivmc; the dumps go to stderr)
  - records each run (command, exit status, stderr), so a crash can be reported with its signal
    and the tool's last words;
  - runs the tool itself with check=False and then raises CalledProcessError as `check=True`
    would, so the stage fails exactly as it would have.
The adapter's stderr (warnings such as "... and its users all have no location!") is copied to
the worker's stderr, where the compile log collects it.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ADAPTER_OPT = "triton-adapter-opt"
BISHENGIR = "bishengir-compile"
# The tool each stage starts (by role: a replacement adapter may have any file name).
TOOL_OF_STAGE = {"ttadapter": ADAPTER_OPT, "npubin": BISHENGIR}


@dataclass
class ToolRun:
    stage: str
    tool: str
    command: list[str]
    returncode: int | None = None
    stderr: str = ""

    def crashed(self) -> bool:
        """Killed by a signal (subprocess reports -N), as the adapter's abort is."""
        return self.returncode is not None and self.returncode < 0


@dataclass
class ToolRunner:
    """Stands in for the `subprocess` module inside triton-ascend's compiler module."""
    stage: str
    adapter_dump_dir: Path | None          # None: no adapter pass dumps
    bishengir_dumps: bool
    runs: list[ToolRun] = field(default_factory=list)

    def __getattr__(self, name: str) -> Any:
        return getattr(subprocess, name)   # CalledProcessError, PIPE, check_call, ...

    def run(self, command, *args, check: bool = False, **kwargs):
        command = [str(part) for part in command]
        tool = TOOL_OF_STAGE.get(self.stage, Path(command[0]).name)
        command = command + self.dump_flags(tool)
        record = ToolRun(self.stage, tool, command)
        self.runs.append(record)
        completed = subprocess.run(command, *args, check=False, **kwargs)
        record.returncode = completed.returncode
        record.stderr = _text(completed.stderr)
        if tool == ADAPTER_OPT and record.stderr:
            sys.stderr.write(record.stderr if record.stderr.endswith("\n")
                             else record.stderr + "\n")
            sys.stderr.flush()
        if check and completed.returncode != 0:
            raise subprocess.CalledProcessError(completed.returncode, command,
                                                completed.stdout, completed.stderr)
        return completed

    def dump_flags(self, tool: str) -> list[str]:
        if tool == ADAPTER_OPT and self.adapter_dump_dir is not None:
            return ["--mlir-print-ir-after-all",
                    f"--mlir-print-ir-tree-dir={self.adapter_dump_dir}"]
        if tool == BISHENGIR and self.bishengir_dumps:
            return ["--mlir-print-ir-after-all"]
        return []

    def last(self) -> ToolRun | None:
        return self.runs[-1] if self.runs else None


def _text(output: Any) -> str:
    if output is None:
        return ""
    return output.decode("utf-8", errors="replace") if isinstance(output, bytes) else str(output)


@contextlib.contextmanager
def tools_of_stage(runner: ToolRunner, compiler_globals: dict,
                   adapter_opt: str | None) -> Iterator[ToolRunner]:
    """Steers the tools of one stage. `compiler_globals` are those of the backend's compiler
    module: triton loads backends/ascend/compiler.py from its path as a module of its own (not
    the importable triton.backends.ascend.compiler), so it is reached through the backend's
    functions. `adapter_opt` replaces the wheel's triton-adapter-opt."""
    saved = {name: compiler_globals[name]
             for name in ("subprocess", "_get_triton_adapter_opt_path")}
    compiler_globals["subprocess"] = runner
    if adapter_opt:
        compiler_globals["_get_triton_adapter_opt_path"] = lambda: adapter_opt
    try:
        yield runner
    finally:
        compiler_globals.update(saved)


def adapter_opt_override() -> str | None:
    from .environment import ADAPTER_OPT_VARIABLE
    return os.environ.get(ADAPTER_OPT_VARIABLE) or None
