"""Method `profile`: Nsight Compute on the task's kernels, parsed into JSON (server side).

ncu launches the task worker (action `profile_target`), which warms up (compiles) outside the
profiled range and then runs one forward between cudaProfilerStart/Stop; ncu profiles with
`--profile-from-start off`, so only the task's own kernels in that forward are measured, with
`--clock-control none` (the card's clocks are left as they are). The report is then read back
with `ncu --import`: `--page details --csv` for the sections' metrics and `--page source --csv
--print-source sass` (and `cuda,sass`) for per-instruction / per-line costs. When ncu is missing
or may not read the counters (ERR_NVGPUCTRPERM, or the profiler cannot load), the result says
so in `ncu.status` and carries the task's captured kernels anyway.
"""
from __future__ import annotations

import csv
import glob
import io
import os
import shutil
import subprocess
from typing import Any

from ... import PROTOCOL_VERSION
from ...table_cells import cell_number as _number
from ...task_runner import TaskRequest, raise_failure, run_worker

SECTIONS = ["SpeedOfLight", "MemoryWorkloadAnalysis", "Occupancy", "WarpStateStats",
            "InstructionStats", "SourceCounters", "LaunchStats"]
COUNTER_PERMISSION_MARKERS = ("ERR_NVGPUCTRPERM", "permission to access NVIDIA GPU Performance "
                              "Counters")
PROFILER_FAILURE_MARKERS = ("LibraryNotLoaded", "Failed to initialize the profiler",
                            "==ERROR==")
MAX_SOURCE_ROWS = 40


def find_ncu() -> str | None:
    found = shutil.which("ncu")
    if found:
        return found
    candidates = sorted(glob.glob("/usr/local/cuda*/bin/ncu")) + \
        sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"))
    return candidates[-1] if candidates else None


def ncu_version(ncu: str) -> str | None:
    try:
        completed = subprocess.run([ncu, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = [line for line in completed.stdout.splitlines() if line.strip()]
    return lines[-1].strip() if lines else None


def profile(params: dict, progress, on_worker=None) -> dict:
    request = TaskRequest("profile_target", params)
    ncu = find_ncu()
    if ncu is None:
        result, failure, _ = run_worker(request, progress, on_worker)
        if failure:
            raise_failure(request, failure)
        return {"protocol": PROTOCOL_VERSION, "task": request.task_paths[0],
                "kernels": result["kernels"],
                "ncu": {"status": "unavailable", "message": "ncu (Nsight Compute) not found on "
                        "PATH, /usr/local/cuda*/bin or /opt/nvidia/nsight-compute"}}
    sections = params.get("sections", SECTIONS)
    report_dir = _report_dir(params)
    report_base = os.path.join(report_dir, "profile")
    prefix = [ncu, "--clock-control", "none", "--profile-from-start", "off",
              "--target-processes", "all", "--import-source", "yes", "-f", "-o", report_base]
    for section in sections:
        prefix += ["--section", section]
    progress(f"profiling under {ncu}")
    result, failure, worker = run_worker(request, progress, on_worker, command_prefix=prefix,
                                         keep_dir=True)
    ncu_lines = (worker.stderr_tail() or "").splitlines()
    worker.cleanup()
    report_path = report_base + ".ncu-rep"
    if failure and not os.path.isfile(report_path):
        status = counter_status("\n".join(ncu_lines) + failure.get("stderr_tail", ""))
        if status is None:
            raise_failure(request, failure)
        return {"protocol": PROTOCOL_VERSION, "task": request.task_paths[0], "kernels": [],
                "ncu": {**status, "path": ncu, "version": ncu_version(ncu)}}
    summary = {"status": "ok", "path": ncu, "version": ncu_version(ncu), "report": report_path,
               "sections": sections, "clock_control": "none"}
    status = counter_status("\n".join(ncu_lines))
    if not os.path.isfile(report_path):
        summary.update(status or {"status": "no_report", "message": "ncu wrote no report"})
        summary["output_tail"] = ncu_lines[-20:]
    else:
        summary.update(read_report(ncu, report_path, report_dir))
    return {"protocol": PROTOCOL_VERSION, "task": request.task_paths[0],
            "kernels": (result or {}).get("kernels", []), "ncu": summary}


def _report_dir(params: dict) -> str:
    given = params.get("work_dir")
    if given:
        os.makedirs(given, exist_ok=True)
        return os.path.abspath(given)
    import tempfile
    return tempfile.mkdtemp(prefix="strata-profile-")


def counter_status(text: str) -> dict | None:
    if any(marker in text for marker in COUNTER_PERMISSION_MARKERS):
        return {"status": "counters_unavailable", "message": "ncu may not read the GPU "
                "performance counters here (ERR_NVGPUCTRPERM): profiling needs admin rights or "
                "NVreg_RestrictProfilingToAdminUsers=0"}
    if any(marker in text for marker in PROFILER_FAILURE_MARKERS):
        lines = [line for line in text.splitlines() if "==ERROR==" in line or "Failed" in line]
        return {"status": "profiler_failed", "message": "; ".join(lines[:5]) or
                "ncu could not profile"}
    return None


def _import(ncu: str, report_path: str, extra: list[str]) -> tuple[int, str, str]:
    try:
        completed = subprocess.run([ncu, "--import", report_path, "--csv"] + extra,
                                   capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as error:
        return -1, "", str(error)
    return completed.returncode, completed.stdout, completed.stderr


def read_report(ncu: str, report_path: str, report_dir: str) -> dict:
    out: dict[str, Any] = {}
    code, text, error = _import(ncu, report_path, ["--page", "details"])
    _save(report_dir, "details.csv", text)
    out["kernels"] = parse_details(text) if code == 0 else []
    if code != 0:
        out["details_error"] = error.strip()[-500:]
    out["source"] = {}
    for view in ("sass", "cuda,sass"):
        code, text, error = _import(ncu, report_path, ["--page", "source", "--print-source",
                                                        view])
        name = "source-" + view.replace(",", "-") + ".csv"
        _save(report_dir, name, text)
        if code == 0 and text.strip():
            out["source"][view] = parse_source(text)
        else:
            out["source"][view] = {"error": (error or text).strip()[-500:] or "no output"}
    out["files"] = sorted(os.path.join(report_dir, name) for name in os.listdir(report_dir))
    return out


def _save(directory: str, name: str, text: str) -> None:
    with open(os.path.join(directory, name), "w", encoding="utf-8") as handle:
        handle.write(text)


def _csv_rows(text: str) -> list[list[str]]:
    lines = [line for line in text.splitlines() if line.startswith('"')]
    return list(csv.reader(io.StringIO("\n".join(lines))))


def _fit(row: list[str], width: int) -> list[str]:
    """ncu ends some rows with a stray comma and leaves empty trailing fields out."""
    if len(row) == width + 1 and row[-1] == "":
        row = row[:-1]
    return (row + [""] * width)[:width]


def parse_details(text: str) -> list[dict]:
    """`--page details --csv`: one row per (kernel launch, section, metric or rule result)."""
    rows = _csv_rows(text)
    if not rows:
        return []
    header = rows[0]
    needed = ("ID", "Kernel Name", "Section Name", "Metric Name", "Metric Value")
    if not all(name in header for name in needed):
        return [{"error": f"unexpected details header: {header[:20]}"}]
    kernels: dict[str, dict] = {}
    for row in rows[1:]:
        field = dict(zip(header, _fit(row, len(header))))
        launch = kernels.setdefault(field["ID"], {
            "id": _number(field["ID"]), "kernel": field["Kernel Name"],
            "grid": field.get("Grid Size"), "block": field.get("Block Size"),
            "sections": {}, "rules": []})
        if field["Metric Name"]:
            section = launch["sections"].setdefault(field["Section Name"], {})
            section[field["Metric Name"]] = {"value": _number(field["Metric Value"]),
                                             "unit": field.get("Metric Unit", "")}
        if field.get("Rule Name"):
            launch["rules"].append({
                "section": field["Section Name"], "rule": field["Rule Name"],
                "type": field.get("Rule Type"), "description": field.get("Rule Description"),
                "estimated_speedup": _number(field.get("Estimated Speedup", "")),
                "estimated_speedup_type": field.get("Estimated Speedup Type")})
    return list(kernels.values())


def parse_source(text: str) -> dict:
    """`--page source --csv`. With `sass`: a "Kernel Name" line, a header starting "Address",
    one row per instruction. With `cuda,sass`: per source file a "File Path" and "Function Name"
    line and a header starting "Line No"; a row with a line number carries that line's totals,
    the SASS rows below it (no line number) its instructions. Rows "..." mark elided code."""
    context: dict[str, str] = {}
    header: list[str] | None = None
    lines: list[dict] = []
    instructions: list[dict] = []
    current_line: dict | None = None
    for row in _csv_rows(text):
        if row and row[0] in ("Kernel Name", "File Path", "Function Name") and len(row) <= 3:
            context[row[0]] = row[1]
            continue
        if row and row[0] in ("Address", "Line No"):
            header = _unique_names(row)
            continue
        if header is None:
            continue
        record = dict(zip(header, _fit(row, len(header))))
        if record.get("Line No"):
            current_line = {"file": context.get("File Path"),
                            "function": context.get("Function Name"),
                            "line": _number(record["Line No"]), "source": record["Source"],
                            **_costs(record)}
            lines.append(current_line)
        elif record.get("Address") not in (None, "", "..."):
            instructions.append({"address": record["Address"],
                                 "sass": record.get("SASS", record.get("Source", "")).strip(),
                                 "file": current_line["file"] if current_line else None,
                                 "line": current_line["line"] if current_line else None,
                                 **_costs(record)})
    ranked = sorted(instructions, key=lambda item: item["stall_samples"], reverse=True)
    return {"kernel": context.get("Kernel Name") or context.get("Function Name"),
            "columns": header or [], "cost_column": STALL_SAMPLES,
            "total_stall_samples": sum(item["stall_samples"] for item in instructions),
            "lines": sorted(lines, key=lambda item: item["stall_samples"], reverse=True),
            "instruction_count": len(instructions), "top_instructions": ranked[:MAX_SOURCE_ROWS]}


STALL_SAMPLES = "Warp Stall Sampling (All Samples)"
_COST_COLUMNS = {STALL_SAMPLES: "stall_samples",
                 "Warp Stall Sampling (Not-issued Samples)": "stall_samples_not_issued",
                 "Instructions Executed": "instructions_executed",
                 "L2 Theoretical Sectors Global Excessive": "l2_sectors_global_excessive",
                 "L1 Wavefronts Shared Excessive": "l1_wavefronts_shared_excessive"}


def _unique_names(header: list[str]) -> list[str]:
    """The cuda,sass header names two columns "Source": the CUDA line and the SASS text."""
    names, seen = [], set()
    for name in header:
        names.append("SASS" if name == "Source" and name in seen else name)
        seen.add(name)
    return names


def _costs(record: dict) -> dict:
    costs = {key: _cost(record.get(column, "")) for column, key in _COST_COLUMNS.items()}
    stalls = {name.removeprefix("stall_"): _cost(value) for name, value in record.items()
              if name.startswith("stall_") and not name.endswith("(Not Issued)")
              and _cost(value) > 0}
    costs["stalls"] = dict(sorted(stalls.items(), key=lambda item: -item[1]))
    return costs


def _cost(text: str) -> float:
    value = _number(text)
    return float(value) if isinstance(value, (int, float)) else 0.0
