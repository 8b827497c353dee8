"""Helpers and fixtures of the Ascend backend tests: offline compiles of the sample kernels with
triton-ascend (a second venv, scripts/bootstrap_ascend.sh), crash reports, and the msprof and
timing readers on hand-written input. (No conftest.py here: the tests import `conftest` for
agent/tests/conftest.py's AgentClient, which a second conftest module would shadow.)

The compile tests skip, with the reason, when no Python with triton-ascend is found; the reader
tests need none. They run under either interpreter: under .venv the agent starts the worker
with .venv-ascend's Python, under .venv-ascend with its own.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from strata_agent.backends import run_compile
from strata_agent.backends.ascend.environment import AscendUnavailable, ascend_python

HERE = Path(__file__).resolve().parent
ASCEND_KERNELS = HERE / "kernels"
SAMPLES = ("vector_add", "row_softmax", "matmul")

try:
    ASCEND_PYTHON: str | None = ascend_python()
    MISSING_REASON = ""
except AscendUnavailable as missing:
    ASCEND_PYTHON = None
    MISSING_REASON = f"triton-ascend unavailable: {missing}"

requires_triton_ascend = pytest.mark.skipif(ASCEND_PYTHON is None, reason=MISSING_REASON)


def sample_params(name: str, work_dir: Path, **overrides) -> dict:
    spec_path = ASCEND_KERNELS / f"{name}.spec.json"
    params = {"source_path": str(ASCEND_KERNELS / f"{name}.py"),
              "spec": json.loads(spec_path.read_text()), "spec_path": str(spec_path),
              "work_dir": str(work_dir)}
    params.update(overrides)
    return params


def compile_sample(name: str, work_dir: Path, **overrides) -> dict:
    return run_compile(sample_params(name, work_dir, **overrides), lambda *_, **__: None)


@pytest.fixture(scope="session")
def compiled(tmp_path_factory) -> dict[str, dict]:
    """Each sample compiled once for ascend910_95, with pass dumps: name -> result."""
    if ASCEND_PYTHON is None:
        pytest.skip(MISSING_REASON)
    root = tmp_path_factory.mktemp("ascend-compiles")
    return {name: compile_sample(name, root / name) for name in SAMPLES}


def source_line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line containing `text`."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")


_LOC_DEFINITION = re.compile(r"^(#loc\d*) = loc\((.*)\)\s*$")
_FILE_LINE = re.compile(r'^"(?P<file>[^"]+)":(?P<line>\d+):\d+$')
_NAMED = re.compile(r'^"[^"]*"\((?P<inner>#loc\d*)\)$')
_OP_LOC = re.compile(r"loc\((#loc\d*)\)\s*$")


def loc_table(ir_text: str) -> dict[str, str]:
    return {match.group(1): match.group(2) for line in ir_text.splitlines()
            if (match := _LOC_DEFINITION.match(line))}


def resolve_loc(alias: str, table: dict[str, str]) -> tuple[str, int] | None:
    """(file, line) of a loc alias, following name locations (`loc("acc"(#loc5))`)."""
    for _ in range(16):
        body = table.get(alias, "")
        if match := _FILE_LINE.match(body):
            return match.group("file"), int(match.group("line"))
        named = _NAMED.match(body)
        if not named:
            return None
        alias = named.group("inner")
    return None


def op_source_lines(ir_text: str, op_name: str) -> list[tuple[str, int]]:
    """(file, line) of every op `op_name` in the IR whose location resolves to a file line."""
    table = loc_table(ir_text)
    found = []
    for line in ir_text.splitlines():
        if op_name in line and (match := _OP_LOC.search(line)):
            resolved = resolve_loc(match.group(1), table)
            if resolved:
                found.append(resolved)
    return found


def aborting_tool(folder: Path, message: str = "malloc(): corrupted top size") -> Path:
    """A stand-in compiler tool that prints `message` and dies of SIGABRT, as
    triton-adapter-opt does now and then."""
    tool = folder / "aborting-adapter-opt"
    tool.write_text(f"#!/bin/sh\necho '{message}' >&2\nkill -ABRT $$\n")
    tool.chmod(0o755)
    return tool


def sleeping_tool(folder: Path) -> Path:
    """A stand-in adapter that hangs (a child of the worker: the timeout must kill it too)."""
    tool = folder / "sleeping-adapter-opt"
    tool.write_text("#!/bin/sh\nsleep 300\n")
    tool.chmod(0o755)
    return tool


def failing_tool(folder: Path, message: str) -> Path:
    tool = folder / "failing-adapter-opt"
    tool.write_text(f"#!/bin/sh\necho 'warning: about to fail' >&2\necho '{message}' >&2\n"
                    "exit 1\n")
    tool.chmod(0o755)
    return tool


def stand_in_bishengir(folder: Path) -> Path:
    """A stand-in for CANN's bishengir-compile (never the real one: CANN is not installed
    here). It answers --help as a newer bishengir does (so triton-ascend expects kernel.o),
    writes a placeholder object file and, when asked for --mlir-print-ir-after-all, prints two
    after-pass headers with a module each to stderr, as MLIR does. It checks the plumbing, not
    HIVM."""
    tool = folder / "bishengir-compile"
    tool.write_text("""#!/bin/sh
case " $* " in *" --help "*) echo "--limit-auto-multi-buffer-buffer"; exit 0;; esac
output=""; previous=""
for argument in "$@"; do
  [ "$previous" = "-o" ] && output="$argument"
  previous="$argument"
done
case " $* " in
  *" --mlir-print-ir-after-all "*)
    echo "// -----// IR Dump After HIVMLowerToLoops (hivm-lower-to-loops) //----- //" >&2
    echo "module {" >&2; echo "}" >&2
    echo "// -----// IR Dump After InjectSync (hivm-inject-sync) ('func.func' operation: @k) //----- //" >&2
    echo "func.func @k() {" >&2; echo "}" >&2;;
esac
printf 'placeholder, not an NPU binary' > "$output.o"
""")
    tool.chmod(0o755)
    return tool
