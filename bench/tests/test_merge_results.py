"""bench/gpu/merge_results.py: which measurement of a task stands, and figures equal to the C++ ones."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "gpu"))
import merge_results  # noqa: E402

RESULTS_20261201 = ROOT / "bench" / "results" / "hopper-core-H200-2026-12-01.json"


def task(name, initial, best, status="improved", states=("accepted",), **extra):
    return {"task": name, "status": status, "initial_ms": initial, "best_ms": best,
            "candidates": [{"state": state} for state in states], **extra}


def write(tmp_path, name, tasks, suite="s", commit="c", device="NVIDIA H200"):
    path = tmp_path / name
    path.write_text(json.dumps({"schema": "strata.bench", "suite": suite, "commit": commit,
                                "date": "2026-12-02T00:00:00Z", "device": device, "tasks": tasks}))
    return path


def test_one_file_reproduces_the_figures_the_cli_wrote():
    stored = json.loads(RESULTS_20261201.read_text())["summary"]
    figures = merge_results.merge([RESULTS_20261201])["summary"]
    assert figures["tasks"] == stored["tasks"] == 48
    for key in ("geomean_speedup", "median_speedup", "geomean_vs_best_baseline"):
        assert figures[key] == pytest.approx(stored[key], rel=1e-12), key
    for key in ("over_2x", "over_5x", "failures"):
        assert figures[key] == stored[key], key


def test_a_later_finished_run_replaces_and_an_unjudged_one_does_not(tmp_path):
    old = write(tmp_path, "old.json", [task("a", 1.0, 1.0, "no_gain"), task("b", 2.0, 1.0), task("c", 3.0, 3.0, "no_gain"),
                                       task("e", 1.0, 1.0, "no_gain")], commit="old")
    new = write(tmp_path, "new.json", [
        task("a", 1.0, 0.25),                                                 # finished: replaces
        task("b", 2.0, 2.0, "no_gain", states=("accepted", "verified")),      # cut before timing: keeps old
        task("d", 4.0, 4.0, "interrupted", states=("accepted",)),             # new task, kept even unfinished
        task("e", 1.0, 0.5, "improved", states=("accepted", "verified")),     # a win measured before the cut
    ], commit="new")
    merged = merge_results.merge([old, new])
    by_name = {entry["task"]: entry for entry in merged["tasks"]}
    assert sorted(by_name) == ["a", "b", "c", "d", "e"]
    assert by_name["e"]["best_ms"] == 0.5 and by_name["e"]["partial"] and not by_name["a"]["partial"]
    assert by_name["a"]["best_ms"] == 0.25 and by_name["a"]["measured_in"]["commit"] == "new"
    assert by_name["b"]["best_ms"] == 1.0 and by_name["b"]["measured_in"]["file"] == "old.json"
    assert by_name["c"]["measured_in"]["commit"] == "old"
    assert [source["commit"] for source in merged["merged_from"]] == ["old", "new"]
    assert merged["coverage"] == "merged"
    assert [source["coverage"] for source in merged["merged_from"]] == ["unknown", "unknown"]
    assert merged["summary"]["over_2x"] == 3  # a (4x), b (2x), e (2x)
    assert merged["summary"]["geomean_speedup"] == pytest.approx((4 * 2 * 1 * 1 * 2) ** 0.2)


def test_bad_inputs_name_the_file(tmp_path):
    one = write(tmp_path, "one.json", [task("a", 1.0, 1.0)], suite="x")
    other = write(tmp_path, "other.json", [task("a", 1.0, 1.0)], suite="y")
    with pytest.raises(merge_results.MergeError, match="different suites"):
        merge_results.merge([one, other])
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(merge_results.MergeError, match="broken.json"):
        merge_results.merge([broken])
    assert merge_results.main([str(broken), "--out", str(tmp_path / "m.json")]) == 2
    assert not (tmp_path / "m.json").exists()


def test_runs_of_two_devices_are_not_merged(tmp_path):
    h200 = write(tmp_path, "h200.json", [task("a", 1.0, 0.5)])
    h100 = write(tmp_path, "h100.json", [task("a", 1.2, 0.6)], device="NVIDIA H100 80GB HBM3")
    with pytest.raises(merge_results.MergeError, match="different devices"):
        merge_results.merge([h200, h100])
