"""Every suites/hopper-core task is well formed, read with `ast` (importing 48 task files with
torch and Triton would take far longer). Running them is check_suite.py's job."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import REPO
from task_import import CATEGORIES

SUITE = REPO / "suites" / "hopper-core"
TASKS = sorted(path for path in SUITE.glob("*.py") if not path.name.startswith("_"))
REQUIRED = ("Model", "ModelNew", "get_inputs", "get_init_inputs")

# The kinds of kernel the suite has to cover (the list), as category strings.
REQUIRED_CATEGORIES = {"elementwise", "reduction", "softmax", "normalization", "matmul",
                       "attention", "scan", "indexing", "llm_fused", "pooling", "convolution"}


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def strata_task(path: Path, tree: ast.Module) -> dict:
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "STRATA_TASK":
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path.name}: no STRATA_TASK")


def int_globals(tree: ast.Module) -> dict:
    """Module-level `NAME = <int expression>` values, evaluated like the agent evaluates."""
    from strata_agent.task_loader import evaluate_count  # noqa: imported once, torch inside
    values: dict = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            try:
                value = evaluate_count(ast.unparse(node.value), values)
            except Exception:
                continue  # not arithmetic (DEVICE, a dict, ...)
            if value == int(value) and not isinstance(getattr(node.value, "value", 0), float):
                values[node.targets[0].id] = int(value)
    return values


def test_suite_is_large_enough_and_covers_the_required_categories():
    assert len(TASKS) >= 40
    categories = {strata_task(path, parsed(path))["category"] for path in TASKS}
    assert REQUIRED_CATEGORIES <= categories, REQUIRED_CATEGORIES - categories


@pytest.mark.parametrize("path", TASKS, ids=lambda path: path.stem)
def test_task_is_well_formed(path):
    from strata_agent.task_loader import evaluate_count
    tree = parsed(path)
    defined = {node.name for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert not set(REQUIRED) - defined, f"missing {set(REQUIRED) - defined}"
    assert any(isinstance(decorator, ast.Attribute) and decorator.attr in ("jit", "autotune")
               for node in tree.body if isinstance(node, ast.FunctionDef)
               for decorator in node.decorator_list), "no @triton.jit kernel"
    meta = strata_task(path, tree)
    assert meta["category"] in CATEGORIES
    shapes = int_globals(tree)
    overrides = [{}, meta["interpret_shapes"]] + list(meta.get("extra_shapes", []))
    for override in overrides:
        assert set(override) <= set(shapes), f"{set(override) - set(shapes)} are not globals"
        names = {**shapes, **override}
        for key in ("flops", "bytes"):
            assert isinstance(meta[key], str), f"{key} is not a formula string"
            value = evaluate_count(meta[key], names)
            assert value >= 0 and (key == "flops" or value > 0), f"{key} = {value} at {override}"


def test_readme_lists_every_task_under_its_category():
    readme = (REPO / "suites" / "README.md").read_text()
    rows = {line.split("|")[1].split()[0]: line.split("|")[2] for line in readme.splitlines()
            if line.startswith("| ") and line.count("|") == 3 and "`" in line.split("|")[2]}
    for path in TASKS:
        category = strata_task(path, parsed(path))["category"]
        assert f"`{path.stem}`" in rows.get(category, ""), f"{path.stem} not under {category}"
