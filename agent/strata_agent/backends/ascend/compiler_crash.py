"""A compiler tool that died or refused, as a structured compile error.

triton-adapter-opt (LLVM 20 with assertions) aborts now and then with `malloc(): corrupted top
size` (SIGABRT, about one run in 40 on a matmul for the 910_95 family; ASCEND-NOTES.md section
9). The stage's subprocess.run(check=True) raises CalledProcessError; the worker turns it into
  compile_error / compiler_crashed  (killed by a signal: + signal, exit_code, stage, tool,
                                     stderr_tail, known_issue when the abort is the known one)
  compile_error / tool_failed       (exited non-zero: + exit_code, stage, tool, stderr_tail,
                                     the first `error:` line as the message)
so the agent answers the request and keeps serving.
"""
from __future__ import annotations

import signal
from typing import Any

from ...errors import COMPILE_ERROR, StrataError
from .tool_runs import ToolRun

STDERR_TAIL_LINES = 40
KNOWN_ABORTS = {"malloc(): corrupted top size": "triton-adapter-opt's intermittent heap "
                "corruption (about one run in 40 on a matmul for the 910_95 family); the same "
                "compile usually succeeds when run again"}


def signal_name(returncode: int) -> str:
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def stderr_tail(text: str) -> str:
    return "\n".join(text.rstrip("\n").splitlines()[-STDERR_TAIL_LINES:])


def first_error_line(text: str) -> str | None:
    return next((line.strip() for line in text.splitlines() if "error:" in line), None)


def tool_error(run: ToolRun, where: dict[str, Any]) -> StrataError:
    details = {"stage": run.stage, "tool": run.tool, "exit_code": run.returncode,
               "stderr_tail": stderr_tail(run.stderr), "command": run.command}
    if run.crashed():
        name = signal_name(run.returncode)
        known = next((why for marker, why in KNOWN_ABORTS.items() if marker in run.stderr), None)
        return StrataError(COMPILE_ERROR, "compiler_crashed", f"{run.tool} was killed by {name} "
                           f"in stage {run.stage}", **where, signal=name, known_issue=known,
                           **details)
    reason = first_error_line(run.stderr) or f"exit status {run.returncode}"
    return StrataError(COMPILE_ERROR, "tool_failed", f"{run.tool} failed in stage {run.stage}: "
                       f"{reason}", **where, **details)
