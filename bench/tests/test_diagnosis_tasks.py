"""Structure and correctness of the task benchmark bench/diagnosis/tasks (see its manifest.json).

Correctness runs each task's ModelNew (and its fix) against Model under Triton's CPU interpreter
at the task's interpret_shapes, in subprocesses (a few files each) so TRITON_INTERPRET is set
before triton loads."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

DIAG = Path(__file__).resolve().parents[1] / "diagnosis"
sys.path.insert(0, str(DIAG))
import build_tasks  # noqa: E402
from split import split_of  # noqa: E402
from task_io import load_manifest  # noqa: E402

MANIFEST = load_manifest()
TASKS = MANIFEST["tasks"]
FILES = [t["source"] for t in TASKS] + [t["fix"] for t in TASKS if t["fix"]]
# The mechanisms issue 13 names: each needs at least one planted task.
MECHANISMS = {"multi-pass-reread", "redundant-reload", "uncoalesced", "fma-fallback",
              "mma-v2-not-wgmma", "operand-upcast", "under-filled-grid", "wave-tail",
              "warps-per-program", "low-occupancy", "atomic-contention",
              "loop-carried-dependence", "barrier-in-loop", "host-launch-loop", "torch-glue",
              "register-spill", "layout-conversion", "no-pipelining"}


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
        assert t["style"], t["id"]


def test_benchmark_size_and_coverage():
    kinds = [t["kind"] for t in TASKS]
    cause_classes = {t["cause_class"] for t in TASKS if t["kind"] == "cause"}
    assert len(TASKS) >= 60
    assert len(cause_classes) >= 20
    assert kinds.count("trap") >= 8 and kinds.count("control") >= 8
    assert MECHANISMS <= cause_classes, MECHANISMS - cause_classes


def test_manifest_is_what_build_tasks_writes():
    """Lines, classes and fixes come from build_tasks.py's tables: a task edited without
    rerunning it (stale lines, a fix that drifted from its FIX pairs) fails here."""
    causes = build_tasks.all_causes()
    assert MANIFEST["classes"] == build_tasks.class_table()
    for t in TASKS:
        text = (DIAG / "tasks" / t["source"]).read_text()
        if t["kind"] != "cause":
            assert t["id"] in build_tasks.OTHERS
            continue
        cls, style, anchors, pairs = causes[t["id"]]
        assert (t["cause_class"], t["style"]) == (cls, style)
        assert t["lines"] == build_tasks.planted_lines(text, anchors, t["id"])
        if pairs is not None:
            fixed = (DIAG / "tasks" / t["fix"]).read_text()
            assert fixed == build_tasks.apply_fix(text, pairs, t["id"]), t["id"]
            assert fixed != text


def test_fix_pairs_must_match_once():
    with pytest.raises(SystemExit):
        build_tasks.apply_fix("a = 1\na = 1\n", [("a = 1", "a = 2")], "demo")
    assert build_tasks.apply_fix("x = 1\n", [("x = 1", "x = 2")], "demo") == "x = 2\n"


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


def test_task_sources_carry_no_planted_hints():
    """Comments are visible to a diagnoser: the planted class must not be named in a task."""
    for t in TASKS:
        text = (DIAG / "tasks" / t["source"]).read_text().lower()
        for word in ("planted", "trap", "cause", "slow"):
            assert word not in text, (t["id"], word)


def test_split_is_fixed_and_balanced():
    assert split_of("abc") == split_of("abc")
    # sha256 of the id decides; these are pinned so a change of the rule shows up here.
    assert split_of("softmax_rows_two_warps") == "heldout"
    assert split_of("linear_recurrence") == "heldout"
    for half in ("dev", "heldout"):
        kinds = [t["kind"] for t in TASKS if split_of(t["id"]) == half]
        assert kinds.count("cause") >= 15 and kinds.count("trap") >= 2 \
            and kinds.count("control") >= 3, (half, kinds)


CHECK = r"""
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from task_io import load_task, run_models, rel_error, tolerance, first_config_only
bad = []
for name in sys.argv[2:]:
    path = Path(sys.argv[1]) / "tasks" / name
    try:
        probe = load_task(path)
        m = load_task(path, probe.STRATA_TASK.get("interpret_shapes", {}))
        first_config_only(m)
        ref, new = run_models(m, "cpu")
        err = rel_error(ref, new)
        ok = err <= tolerance(m)
    except Exception as exc:
        err, ok = f"{type(exc).__name__}: {exc}", False
    print(name, err)
    if not ok:
        bad.append((name, err))
print("BAD:", bad)
sys.exit(1 if bad else 0)
"""
CHUNK = 12
CHUNKS = [FILES[i:i + CHUNK] for i in range(0, len(FILES), CHUNK)]


@pytest.mark.parametrize("names", CHUNKS, ids=[f"{c[0]}+{len(c) - 1}" for c in CHUNKS])
def test_model_new_matches_model_under_interpreter(names):
    env = dict(os.environ, TRITON_INTERPRET="1")
    proc = subprocess.run([sys.executable, "-c", CHECK, str(DIAG), *names], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
