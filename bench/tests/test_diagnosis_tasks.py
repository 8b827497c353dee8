"""Structure and correctness of the task benchmark bench/diagnosis/tasks (see its manifest.json).

Correctness runs each task's ModelNew (and its fix) against Model under Triton's CPU interpreter
at the task's interpret_shapes, in a subprocess so TRITON_INTERPRET is set before triton loads."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DIAG = Path(__file__).resolve().parents[1] / "diagnosis"
sys.path.insert(0, str(DIAG))
from split import split_of  # noqa: E402
from task_io import load_manifest  # noqa: E402

MANIFEST = load_manifest()
TASKS = MANIFEST["tasks"]
FILES = [t["source"] for t in TASKS] + [t["fix"] for t in TASKS if t["fix"]]


def test_manifest_shape():
    ids = [t["id"] for t in TASKS]
    assert len(ids) == len(set(ids))
    for t in TASKS:
        assert t["kind"] in ("cause", "trap", "control")
        assert t["cause_class"] in MANIFEST["classes"]
        if t["kind"] == "cause":
            assert t["fix"] and (DIAG / "tasks" / t["fix"]).exists(), t["id"]
            assert t["lines"], t["id"]
        else:
            assert t["fix"] is None
        if t["kind"] == "trap":
            assert t["cause_class"].startswith("trap:")


def test_lines_point_at_code():
    for t in TASKS:
        lines = (DIAG / "tasks" / t["source"]).read_text().splitlines()
        for n in t["lines"]:
            assert 1 <= n <= len(lines) and lines[n - 1].strip(), (t["id"], n)


@pytest.mark.parametrize("name", FILES)
def test_task_defines_the_four_names(name):
    tree = ast.parse((DIAG / "tasks" / name).read_text())
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert {"Model", "ModelNew", "get_inputs", "get_init_inputs"} <= names
    assigned = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)}
    assert "STRATA_TASK" in assigned
    jitted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and any(
        "triton" in ast.unparse(d) for d in n.decorator_list)]
    assert jitted, name


def test_split_is_deterministic_and_uses_both_halves():
    assert split_of("abc") == split_of("abc")
    halves = {split_of(t["id"]) for t in TASKS}
    assert halves == {"dev", "heldout"}


CHECK = r"""
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from task_io import load_task, run_models, rel_error, tolerance, first_config_only
bad = []
for name in sys.argv[2:]:
    path = Path(sys.argv[1]) / "tasks" / name
    probe = load_task(path)
    m = load_task(path, probe.STRATA_TASK.get("interpret_shapes", {}))
    first_config_only(m)
    ref, new = run_models(m, "cpu")
    err = rel_error(ref, new)
    print(name, err)
    if not err <= tolerance(m):
        bad.append((name, err))
sys.exit(1 if bad else 0)
"""


@pytest.mark.parametrize("name", FILES)
def test_model_new_matches_model_under_interpreter(name):
    env = dict(os.environ, TRITON_INTERPRET="1")
    proc = subprocess.run([sys.executable, "-c", CHECK, str(DIAG), name], env=env,
                          capture_output=True, text=True, timeout=170)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
