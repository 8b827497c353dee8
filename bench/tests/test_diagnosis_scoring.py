"""The task benchmark's scorer (bench/diagnosis/run_tasks.py) on hand-made diagnoses, and
measure_fixes.py's refusal on a host without CUDA."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DIAG = Path(__file__).resolve().parents[1] / "diagnosis"
sys.path.insert(0, str(DIAG))
from run_tasks import fix_speedups, half_summary, merged_ranking, score, scored_kind  # noqa: E402
from task_report import summary_markdown  # noqa: E402

LINE_CLASS = {"rules": ["L1.multi-pass-reread"], "kernel_level": False}
KERNEL_CLASS = {"rules": ["L1.under-filled-grid"], "kernel_level": True}
TRAP_CLASS = {"rules": ["L1.per-element-divmod"], "kernel_level": True}


def finding(rule, line, severity, rank, examines=None):
    entry = {"rule": rule, "line": line, "severity": severity, "rank": rank}
    if examines:
        entry["examines"] = examines
    return entry


def result_of(*kernels):
    return {"kernels": [{"launch": {"kernel": f"k{i}"}, "diagnosis": {"ranking": list(r)}}
                        for i, r in enumerate(kernels)]}


def test_kernels_merge_keeping_each_kernels_order():
    # k0 ranks a medium mechanism before a high symptom (measured tiers): the merge keeps that,
    # and orders the kernels' first findings by severity among themselves.
    merged = merged_ranking(result_of([finding("A", 1, "medium", 1), finding("S", 2, "high", 2)],
                                      [finding("C", 3, "high", 1)]))
    assert [e["rule"] for e in merged] == ["C", "A", "S"]
    assert merged[0]["kernel"] == "k1"


def test_cause_needs_class_rule_on_planted_line():
    task = {"kind": "cause", "lines": [20, 24]}
    on_line = [finding("L1.multi-pass-reread", 24, "high", 1)]
    off_line = [finding("L1.multi-pass-reread", 30, "high", 1)]
    wrong_rule = [finding("L3.register-spill", 24, "high", 1), *on_line]
    assert score(task, LINE_CLASS, on_line) == {"top1": True, "top3": True, "found": True}
    assert score(task, LINE_CLASS, off_line)["top1"] is False
    assert score(task, LINE_CLASS, wrong_rule) == {"top1": False, "top3": True, "found": True}
    assert score(task, LINE_CLASS, []) == {"top1": False, "top3": False, "found": False}


def test_l4_finding_scores_by_the_rule_it_examines():
    task = {"kind": "cause", "lines": [7]}
    ranking = [finding("L4.confirmed-cause", 0, "medium", 1, examines="L1.under-filled-grid")]
    assert score(task, KERNEL_CLASS, ranking)["top1"] is True  # kernel level: any line


def test_traps_and_controls():
    trap = {"kind": "trap", "lines": []}
    high_first = [finding("L1.per-element-divmod", 5, "high", 1)]
    low_first = [finding("L1.per-element-divmod", 5, "low", 1)]
    assert score(trap, TRAP_CLASS, high_first) == {"pass": False, "fact_reported": True}
    assert score(trap, TRAP_CLASS, low_first) == {"pass": True, "fact_reported": True}
    control = {"kind": "control", "lines": []}
    assert score(control, {"rules": []}, low_first) == {"pass": True}
    assert score(control, {"rules": []}, [*low_first, finding("X", 1, "critical", 2)]) == \
        {"pass": False}


def test_a_cause_whose_fix_gains_little_is_scored_like_a_trap(tmp_path):
    timings = tmp_path / "fixes.json"
    timings.write_text(json.dumps({"results": [
        {"task": "fast_fix", "kind": "cause", "correct": True, "speedup": 1.6},
        {"task": "flat_fix", "kind": "cause", "correct": True, "speedup": 1.04},
        {"task": "wrong_fix", "kind": "cause", "correct": False, "speedup": 3.0},
        {"task": "a_trap", "kind": "trap", "correct": True, "speedup": 0.9}]}))
    speedups = fix_speedups([timings])
    assert speedups == {"fast_fix": 1.6, "flat_fix": 1.04}
    kinds = {name: scored_kind({"id": name, "kind": kind}, speedups) for name, kind in
             [("fast_fix", "cause"), ("flat_fix", "cause"), ("wrong_fix", "cause"),
              ("a_trap", "trap")]}
    assert kinds == {"fast_fix": "cause", "flat_fix": "unvalidated", "wrong_fix": "cause",
                     "a_trap": "trap"}
    flat = {"kind": "unvalidated", "lines": [24]}
    assert score(flat, LINE_CLASS, [finding("L1.multi-pass-reread", 24, "high", 1)]) == \
        {"pass": False, "fact_reported": True}
    assert score(flat, LINE_CLASS, [finding("L1.multi-pass-reread", 24, "low", 1)])["pass"]


def test_half_summary_and_markdown():
    rows = [{"id": "a", "split": "dev", "kind": "cause", "cause_class": "c1", "top1": True,
             "top3": True, "found": True, "error": "", "failures": [], "capture_errors": [],
             "top": [finding("R", 1, "high", 1)]},
            {"id": "b", "split": "dev", "kind": "trap", "cause_class": "trap:x", "pass": False,
             "fact_reported": True, "error": "", "failures": [], "capture_errors": [], "top": []}]
    summary = half_summary(rows)
    assert (summary["top1"], summary["causes"], summary["traps_pass"]) == (1, 1, 0)
    assert summary["per_class_top1"] == {"c1": "1/1"}
    result = {"date": "2026-01-01", "mode": "static", "cli_arguments": ["diagnose"],
              "versions": {}, "machine": {}, "seconds": 1, "halves": {"dev": summary},
              "tasks": rows}
    text = summary_markdown(result, {"classes": {"c1": {"rules": []}}})
    assert "| dev | 1/1 |" in text and "**fail**" in text and "c1" in text


def test_measure_fixes_refuses_without_cuda(tmp_path):
    probe = subprocess.run([sys.executable, "-c", "import torch; print(torch.cuda.is_available())"],
                           capture_output=True, text=True)
    if probe.stdout.strip() != "False":
        return  # a CUDA host would really measure: not a unit test
    out = tmp_path / "fixes.json"
    run = subprocess.run([sys.executable, str(DIAG / "measure_fixes.py"), str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2 and "CUDA" in run.stderr and not out.exists()
    assert json.loads((DIAG / "tasks" / "manifest.json").read_text())["tasks"]
