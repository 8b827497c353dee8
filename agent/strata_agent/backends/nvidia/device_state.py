"""Clocks, temperature and power of the GPUs, from nvidia-smi (stdlib only; never changes them)."""
from __future__ import annotations

import shutil
import subprocess

# Asked in this order; a field the driver does not know makes nvidia-smi fail, so the query is
# retried with the core fields only.
STATE_FIELDS = ["index", "name", "driver_version", "pstate", "clocks.sm", "clocks.mem",
                "clocks.max.sm", "clocks.max.mem", "clocks.applications.graphics",
                "temperature.gpu", "power.draw", "power.limit",
                "clocks_event_reasons.active"]
CORE_FIELDS = ["index", "name", "driver_version", "clocks.sm", "clocks.mem", "clocks.max.sm",
               "clocks.max.mem", "temperature.gpu"]


def gpu_state() -> dict:
    """{"gpus": [...], "source": "nvidia-smi"} or {"gpus": [], "error": "..."}."""
    tool = shutil.which("nvidia-smi")
    if tool is None:
        return {"gpus": [], "error": "nvidia-smi not found"}
    last_error = ""
    for fields in (STATE_FIELDS, CORE_FIELDS):
        try:
            completed = subprocess.run([tool, f"--query-gpu={','.join(fields)}",
                                        "--format=csv,noheader,nounits"], capture_output=True,
                                       text=True, timeout=15, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            return {"gpus": [], "error": f"nvidia-smi failed: {error}"}
        if completed.returncode == 0:
            return {"gpus": [_row(fields, line) for line in completed.stdout.strip().splitlines()],
                    "source": "nvidia-smi"}
        last_error = (completed.stdout + completed.stderr).strip()[:300]
    return {"gpus": [], "error": f"nvidia-smi query failed: {last_error}"}


def _row(fields: list[str], line: str) -> dict:
    values = [value.strip() for value in line.split(",")]
    row = {}
    for name, value in zip(fields, values):
        key = name.replace(".", "_")
        row[key] = _number(value)
    return row


def _number(text: str):
    if text in ("[N/A]", "N/A", "[Not Supported]", ""):
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text
