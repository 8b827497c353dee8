"""bench/gpu/suite_targets.py: the #15 targets computed from a strata.bench results file."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "gpu"))
import suite_targets  # noqa: E402


def task(name, initial, best, roofline, bound="memory", category="elementwise", eager=None,
         compiled=None, status="improved"):
    return {"task": name, "initial_ms": initial, "best_ms": best, "roofline_pct": roofline,
            "bound": bound, "category": category, "eager_ms": eager, "compile_ms": compiled,
            "status": status}


RESULTS = {"tasks": [
    # starts at 90 * 1 / 4 = 22.5% of roofline: a slow start, 4x
    task("scan", 4.0, 1.0, 90.0, eager=2.0, compiled=1.0),
    # already at its roofline: not a slow start, at target
    task("copy", 1.0, 1.0, 95.0, eager=1.0, compiled=1.2),
    # memory-bound below 85%
    task("gather", 2.0, 1.0, 60.0, eager=0.5),
    task("gemm", 3.0, 1.0, 90.0, bound="compute", category="matmul", eager=0.9, compiled=0.8),
    task("cut", 1.0, None, None, status="interrupted"),
]}


def test_figures_follow_the_definitions():
    figures = suite_targets.targets(RESULTS)
    assert figures["tasks"] == 4  # the interrupted task has no best time
    # vs the faster baseline: scan 1/1, copy 1/1, gather 0.5/1, gemm 0.8/1
    expected = (1.0 * 1.0 * 0.5 * 0.8) ** 0.25
    assert figures["vs_faster_baseline"]["value"] == pytest.approx(expected)
    assert not figures["vs_faster_baseline"]["met"]
    # slow starts: scan (22.5%), gather (30%), gemm (30%); copy (95%) is not one
    assert sorted(figures["slow_start"]["tasks"]) == ["gather", "gemm", "scan"]
    assert figures["slow_start"]["value"] == pytest.approx((4.0 * 2.0 * 3.0) ** (1 / 3))
    assert figures["memory_bound"]["at_target"] == 2 and figures["memory_bound"]["of"] == 3
    assert figures["memory_bound"]["below"] == {"gather": 60.0}
    assert figures["matmul_vs_cublas"]["ratios"] == {"gemm": pytest.approx(0.9)}
    assert not figures["matmul_vs_cublas"]["met"]


def test_report_prints_the_older_run_beside(tmp_path, capsys):
    newer, older = tmp_path / "new.json", tmp_path / "old.json"
    newer.write_text(json.dumps(RESULTS))
    older.write_text(json.dumps({"tasks": RESULTS["tasks"][:2]}))
    assert suite_targets.main([str(newer), "--compare", str(older), "--json", str(tmp_path / "t.json")]) == 0
    out = capsys.readouterr().out
    assert "2 of 3" in out and "(older run: 2 of 2)" in out and "below: gather 60.0%" in out
    saved = json.loads((tmp_path / "t.json").read_text())
    assert saved["older"]["tasks"] == 2


def test_a_file_that_is_not_a_results_file_is_named(tmp_path, capsys):
    bad = tmp_path / "results.json"
    bad.write_text(json.dumps({"rows": []}))
    assert suite_targets.main([str(bad)]) == 2
    assert str(bad) in capsys.readouterr().err
