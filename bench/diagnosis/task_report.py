"""Provenance (machine, versions, commit) and the Markdown summary of a run_tasks.py result."""
from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _output(command: list[str], cwd: Path | None = None) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=60,
                              cwd=cwd).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def machine_info() -> dict:
    cpu = platform.processor()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in
                   Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    gpus = _output(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
    return {"host": platform.node(), "os": platform.platform(), "cpu": cpu,
            "cores": os.cpu_count(), "gpus": gpus.splitlines() if gpus else []}


def versions(cli: str) -> dict:
    found = {"strata_cli": _output([cli, "--version"]), "python": platform.python_version()}
    python = os.environ.get("STRATA_PYTHON") or str(REPO / ".venv" / "bin" / "python")
    for package in ("triton", "torch"):
        found[package] = _output([python, "-c", f"import {package}; print({package}.__version__)"])
    commit = _output(["git", "rev-parse", "HEAD"], cwd=REPO)
    dirty = _output(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO)
    found["commit"] = commit + ("-dirty" if dirty else "")
    found["branch"] = _output(["git", "rev-parse", "--abbrev-ref", "HEAD"], cwd=REPO)
    return found


def summary_markdown(result: dict, manifest: dict) -> str:
    lines = [f"# Diagnosis on the task benchmark, {result['date']} ({result['mode']})", "",
             f"`strata-cli {' '.join(result['cli_arguments'])}` on each task of "
             "bench/diagnosis/tasks; commit "
             f"{result['versions'].get('commit')}, {result['machine'].get('cpu')} "
             f"({result['machine'].get('cores')} cores), triton {result['versions'].get('triton')}, "
             f"{result['seconds']} s in all."
             + (f" Scored from the outputs kept in {result['scored_from_kept']} (diagnosed earlier, "
                "at the commit the rules changed last)." if result.get("scored_from_kept") else ""), "",
             "| half | causes top-1 | top-3 | found | traps pass | controls pass "
             "| unvalidated causes below high | errors |",
             "|---|---|---|---|---|---|---|---|"]
    for half, s in result["halves"].items():
        lines.append(f"| {half} | {s['top1']}/{s['causes']} | {s['top3']}/{s['causes']} | "
                     f"{s['found']}/{s['causes']} | {s['traps_pass']}/{s['traps']} | "
                     f"{s['controls_pass']}/{s['controls']} | "
                     f"{s.get('unvalidated_pass', 0)}/{s.get('unvalidated', 0)} | {s['errors']} |")
    lines += ["", "Top-1: the first finding names the planted class on a planted line (any line "
              "for kernel-level classes). Traps pass when the first finding is below high; "
              "controls when no finding is high or critical. A planted cause whose fix was timed "
              f"below {result.get('validated_speedup', 1.15)}x on the GPU "
              f"({', '.join(result.get('fix_timings') or []) or 'no timings file'}) is not a cause at these shapes: "
              "it is scored `unvalidated` like a trap (it passes when the first finding is below "
              "high).", ""]
    if result.get("mode") == "measured":
        lines += ["Measured: " + "; ".join(
            f"{half} {s.get('causes_with_measurements', 0)} of {s['causes']} causes and "
            f"{s.get('with_measurements', 0)} tasks in all had saved H200 replies (the others were "
            "diagnosed statically)" for half, s in result["halves"].items()) + ".", ""]
    lines += ["| half | kind | task | class | verdict | first finding |", "|---|---|---|---|---|---|"]
    for row in sorted(result["tasks"], key=lambda r: (r["split"], r["kind"], r["id"])):
        speedup = f" (fix x{row['fix_speedup']:.2f})" if row.get("fix_speedup") else ""
        lines.append(f"| {row['split']} | {row['kind']} | {row['id']} | {row['cause_class']}"
                     f"{speedup} | {_verdict(row)} | {_first(row)} |")
    empty = [name for name, c in manifest["classes"].items() if not c["rules"]
             and not name.startswith("trap:") and name != "control"]
    if empty:
        lines += ["", "Classes no documented rule names (their tasks cannot score top-1 yet): "
                  + ", ".join(empty) + "."]
    return "\n".join(lines) + "\n"


def _verdict(row: dict) -> str:
    if row["error"] and not row["top"]:
        return "error"
    if row["kind"] == "cause":
        return "top-1" if row["top1"] else "top-3" if row["top3"] else "miss"
    return "pass" if row["pass"] else "**fail**"


def _first(row: dict) -> str:
    if not row["top"]:
        return "(none)" if not row["error"] else row["error"][:80].replace("|", "/")
    top = row["top"][0]
    return f"{top['severity']} {top.get('examines') or top['rule']} (line {top['line']})"
