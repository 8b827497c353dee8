"""`msprof op` output read into the shape of the NVIDIA profile reader (backends/nvidia), which the
L2 profile diagnosis reads: {"status", "kernels": [{id, kernel, grid, block, sections: {section:
{metric: {value, unit}}}, rules}], "source": {view: {kernel, columns, cost_column, lines, ...}}}.

NEVER RUN ON AN NPU HERE: the formats are those documented (ASCEND-NOTES.md section 3; msopprof
`msopprof_performance_data.md`, `msopprof_simulator_performance_data.md`), and the tests read
hand-written fixtures (agent/tests/ascend/msprof_fixtures/README.md), not measurements.

`msprof op --kernel-name=K --output=DIR python3 task.py` writes DIR/OPPROF_<time>_<rand>/ per
profiled launch with:
  OpBasicInfo.csv      one row: Op Name, Op Type (vector/mix), Task Duration(us), Block Dim,
                       Mix Block Dim, Device Id, Pid, Current Freq, Rated Freq
  PipeUtilization.csv  one row per core (block_id, sub_block_id): aiv_time(us),
                       aiv_total_cycles, aiv_{vec,scalar,mte2,mte3}_{time(us),ratio},
                       aic_{cube,mte1,fixpipe}_..., icache_miss_rate
  Memory.csv, MemoryUB.csv, L2Cache.csv, ... (read the same way as PipeUtilization)
`msprof op simulator` writes simulator/core*.veccore*/*_code_exe.csv: code (file:line),
call_count, cycles, running_time(us): the per-source-line costs (needs line info on).

Per-core tables become one section with each metric's mean over the cores (`cores` keeps the
rows); a per-line table becomes the source view `code_exe`, summed over the cores, costliest
line first, with `cycles` as its cost column.
"""
from __future__ import annotations

import csv
import statistics
from pathlib import Path
from typing import Any

from ...table_cells import cell_number as number

BASIC_INFO = "OpBasicInfo"
CODE_EXE_VIEW = "code_exe"
_CORE_ID_COLUMNS = ("block_id", "sub_block_id", "core_id", "core_type", "block id",
                    "sub block id")
MAX_SOURCE_ROWS = 40


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as handle:
        return [{key.strip(): (value or "").strip() for key, value in row.items() if key}
                for row in csv.DictReader(handle)]


def unit_of(column: str) -> str:
    """The unit a documented column name carries: `(us)`, `_ratio`, `_rate`, `_cycles`, `Freq`."""
    lowered = column.lower()
    if lowered.endswith("(us)"):
        return "us"
    if lowered.endswith(("_ratio", "_rate")):
        return "ratio"
    if lowered.endswith("cycles"):
        return "cycle"
    if lowered.endswith("freq"):
        return "MHz"
    return ""


def metric_section(row: dict[str, str]) -> dict[str, dict]:
    return {column: {"value": number(value), "unit": unit_of(column)}
            for column, value in row.items()}


def per_core_section(rows: list[dict[str, str]]) -> tuple[dict[str, dict], list[dict]]:
    """Each numeric metric's mean over the cores; the rows themselves as `cores`."""
    cores = [{column: number(value) for column, value in row.items()} for row in rows]
    section = {}
    for column in rows[0] if rows else []:
        if column.lower() in _CORE_ID_COLUMNS:
            continue
        values = [core[column] for core in cores if isinstance(core[column], (int, float))]
        if values:
            section[column] = {"value": statistics.fmean(values), "unit": unit_of(column),
                               "aggregate": f"mean of {len(values)} cores"}
    return section, cores


def read_opprof_folder(folder: Path, index: int) -> dict:
    """One profiled launch (an OPPROF_* folder) as one entry of `kernels`."""
    basic_rows = read_csv(folder / f"{BASIC_INFO}.csv") if (folder / f"{BASIC_INFO}.csv") \
        .is_file() else []
    basic = basic_rows[0] if basic_rows else {}
    kernel = {"id": index, "kernel": basic.get("Op Name", folder.name),
              "op_type": basic.get("Op Type"), "grid": basic.get("Block Dim"),
              "block": basic.get("Mix Block Dim"), "sections": {}, "cores": {}, "rules": [],
              "folder": str(folder)}
    if basic:
        kernel["sections"][BASIC_INFO] = metric_section(basic)
    for table in sorted(folder.glob("*.csv")):
        if table.stem == BASIC_INFO:
            continue
        rows = read_csv(table)
        if rows:
            kernel["sections"][table.stem], kernel["cores"][table.stem] = per_core_section(rows)
    return kernel


def split_code(code: str) -> tuple[str | None, int | None]:
    """`/p/kernel.py:17` -> ("/p/kernel.py", 17)."""
    file, _, line = code.rpartition(":")
    return (file or None, int(line)) if line.strip().isdigit() else (code or None, None)


def read_code_exe(files: list[Path]) -> dict:
    """The simulator's per-line tables, summed over cores, as a source view."""
    lines: dict[tuple, dict] = {}
    columns: list[str] = []
    for path in files:
        for row in read_csv(path):
            columns = columns or list(row)
            file, line = split_code(row.get("code", ""))
            if line is None:
                continue
            entry = lines.setdefault((file, line), {
                "file": file, "function": None, "line": line, "source": None, "cycles": 0.0,
                "call_count": 0, "running_time_us": 0.0, "stalls": {}})
            entry["cycles"] += float(number(row.get("cycles", "0")) or 0)
            entry["call_count"] += int(number(row.get("call_count", "0")) or 0)
            entry["running_time_us"] += float(number(row.get("running_time(us)", "0")) or 0)
    ranked = sorted(lines.values(), key=lambda item: item["cycles"], reverse=True)
    return {"kernel": None, "columns": columns, "cost_column": "cycles",
            "total_cycles": sum(item["cycles"] for item in ranked), "cores": len(files),
            "instruction_count": 0, "lines": ranked[:MAX_SOURCE_ROWS], "top_instructions": []}


def read_msprof_output(output_dir: Path) -> dict:
    """The profile summary of one `msprof op` (or `msprof op simulator`) output folder."""
    output_dir = Path(output_dir)
    folders = sorted(path for path in output_dir.rglob("OPPROF_*")
                     if path.is_dir() and any(path.glob("*.csv")))   # a simulator run has none
    code_exe = sorted(output_dir.rglob("*_code_exe.csv"))
    summary: dict[str, Any] = {"profiler": "msprof", "report": str(output_dir),
                               "files": sorted(str(path) for path in output_dir.rglob("*.csv"))}
    if not folders and not code_exe:
        return {**summary, "status": "no_report",
                "message": f"no OPPROF_* folder or *_code_exe.csv under {output_dir}"}
    kernels = [read_opprof_folder(folder, index) for index, folder in enumerate(folders)]
    summary.update({"status": "ok", "kernels": kernels,
                    "sections": sorted({name for kernel in kernels for name in kernel["sections"]}),
                    "source": {CODE_EXE_VIEW: read_code_exe(code_exe)} if code_exe else {}})
    return summary


def msprof_op_command(kernel_name: str | None, output_dir: str, command: list[str],
                      warm_up: int = 3, launch_count: int = 1) -> list[str]:
    """`msprof op` around a command that launches the kernel. The runtime knows a kernel by the
    last 49 characters of its name (triton-ascend's pack_metadata); mix kernels are reported
    with an `_mix_aic` suffix (third-party notes, unverified), so match results by prefix.
    Without a kernel name msprof chooses what to profile (its documented default; unverified)."""
    name = [f"--kernel-name={kernel_name[-49:]}"] if kernel_name else []
    return ["msprof", "op", *name, f"--output={output_dir}", f"--warm-up={warm_up}",
            f"--launch-count={launch_count}", *command]
