"""suites/ascend-npukernelbench, run through the agent's own functions:

- every task's ModelNew matches its Model under Triton's CPU interpreter at its interpret_shapes
  (`verify` with `interpret: true`, this Python: NVIDIA's triton and torch);
- every kernel, captured at the task's real shapes (`run_task` with `capture_only: true`), keeps
  to the suite's grid rule and compiles for the Ascend 950 (`ascend910_95`) through the agent's
  Ascend backend, which runs triton-ascend in .venv-ascend: TTIR and ttadapter ran, and ttadapter
  carries the kernel's source lines. Skipped, with the reason, where .venv-ascend is missing
  (scripts/bootstrap_ascend.sh creates it).

The task file itself is compiled: the Ascend compile imports it, and its module-level torch
comes from .venv through the .pth scripts/bootstrap_ascend.sh writes (triton stays triton-ascend).
"""
from __future__ import annotations

import ast
import math
import re
from pathlib import Path

import pytest

from conftest import REPO

pytest.importorskip("torch", reason="the task runs need torch (scripts/bootstrap.sh --tests)")

from strata_agent.backends import run_compile  # noqa: E402
from strata_agent.backends.ascend.environment import AscendUnavailable, ascend_python  # noqa: E402
from strata_agent.task_runner import run_task, verify  # noqa: E402

SUITE = REPO / "suites" / "ascend-npukernelbench"
TASKS = sorted(path for path in SUITE.glob("*.py") if not path.name.startswith("_"))
# The suite's rule for triton-ascend: a 1-D grid of at most a few thousand programs, since
# programs beyond the AI-core count run in batches (ASCEND-NOTES.md, "Grid -> cores").
MOST_PROGRAMS = 5000
SOURCE_LOCATION = re.compile(r'loc\("(?P<file>[^"]+)":(?P<line>\d+):\d+\)')

try:
    ASCEND_PYTHON = ascend_python()
    ASCEND_MISSING = ""
except AscendUnavailable as missing:
    ASCEND_PYTHON = None
    ASCEND_MISSING = f"no Ascend compile: triton-ascend unavailable ({missing})"


def quiet(message, **extra):
    pass


def kernel_line_ranges(task: Path) -> list[range]:
    """The lines of each @triton.jit function of the task, decorators included."""
    ranges = []
    for node in ast.parse(task.read_text()).body:
        if isinstance(node, ast.FunctionDef) and any(
                "jit" in ast.unparse(decorator) for decorator in node.decorator_list):
            first = min(decorator.lineno for decorator in node.decorator_list)
            ranges.append(range(first, node.end_lineno + 1))
    return ranges


def test_suite_has_twenty_tasks_and_the_readme_names_each_with_its_source():
    assert len(TASKS) >= 20
    readme = (SUITE / "README.md").read_text()
    for task in TASKS:
        row = next((line for line in readme.splitlines() if line.startswith(f"| `{task.stem}` |")),
                   None)
        assert row is not None, f"{task.stem} is not in the README's table"
        source = re.search(r"level\d/\S+\.py, case \d+", task.read_text())
        assert source, f"{task.name} does not name its NPUKernelBench file and case"
        assert source.group(0).split(",")[0].split("/")[1] in row, f"{task.stem}: row {row!r}"


@pytest.mark.parametrize("task", TASKS, ids=lambda path: path.stem)
def test_category_and_count_formulas_hold_at_the_real_and_the_interpret_shapes(task):
    from strata_agent.task_loader import evaluate_count
    from task_import import CATEGORIES
    from test_hopper_core_suite import int_globals, parsed, strata_task
    tree = parsed(task)
    meta = strata_task(task, tree)
    assert meta["category"] in CATEGORIES
    shapes = int_globals(tree)
    for override in ({}, meta["interpret_shapes"]):
        assert set(override) <= set(shapes), f"{set(override) - set(shapes)} are not globals"
        for key in ("flops", "bytes"):
            value = evaluate_count(meta[key], {**shapes, **override})
            assert value >= 0 and (key == "flops" or value > 0), f"{key} = {value} at {override}"


@pytest.mark.parametrize("task", TASKS, ids=lambda path: path.stem)
def test_kernel_matches_the_reference_under_the_interpreter(task):
    result = verify({"task": str(task), "interpret": True, "timeout_s": 240}, quiet)
    assert result["verdict"] == "pass", result["reasons"]
    assert result["kernels"], "no Triton launch"


@pytest.mark.skipif(ASCEND_PYTHON is None, reason=ASCEND_MISSING)
@pytest.mark.parametrize("task", TASKS, ids=lambda path: path.stem)
def test_kernels_compile_for_ascend_950_with_source_lines(task, tmp_path):
    captured = run_task({"task": str(task), "capture_only": True, "timeout_s": 240}, quiet)
    assert captured["capture_errors"] == []
    assert captured["kernels"], "no Triton launch captured"
    source = task
    kernel_lines = {line for lines in kernel_line_ranges(task) for line in lines}
    for kernel in captured["kernels"]:
        name = kernel["kernel"]
        assert kernel["grid"][1:] == [1, 1], f"{name}: grid {kernel['grid']} is not 1-D"
        assert math.prod(kernel["grid"]) <= MOST_PROGRAMS, f"{name}: grid {kernel['grid']}"
        result = run_compile({"source_path": str(source), "spec": kernel["spec"],
                              "target": "ascend910_95", "work_dir": str(tmp_path / name),
                              "pass_dumps": False}, quiet)
        ran = {stage["stage"] for stage in result["stages"] if stage["status"] == "ran"}
        assert {"ttir", "ttadapter"} <= ran, result["stages"]
        ttadapter = Path(result["artifacts"]["ttadapter"]["path"]).read_text()
        assert f"func.func @{name}" in ttadapter
        lines = {int(match.group("line")) for match in SOURCE_LOCATION.finditer(ttadapter)
                 if match.group("file") == str(source)}
        assert lines, f"{name}: ttadapter has no location in the task's lines"
        assert lines <= kernel_lines, f"{name}: locations outside the kernels: {lines - kernel_lines}"
