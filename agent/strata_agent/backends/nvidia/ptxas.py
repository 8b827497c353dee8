"""Register, spill, stack and shared-memory figures from the ptxas -v log and cuobjdump."""
from __future__ import annotations

import re

_REGISTERS = re.compile(r"Used (\d+) registers")
_SPILLS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_SMEM = re.compile(r"(\d+) bytes smem")
_RESOURCE_SHARED = re.compile(r"\bSHARED:(\d+)")
_RESOURCE_LOCAL = re.compile(r"\bLOCAL:(\d+)")


def parse_ptxas_log(log: str, resource_usage: str = "") -> dict:
    """{"registers", "spill_stores_bytes", "spill_loads_bytes", "stack_bytes", "shared_bytes",
    "local_bytes", "warnings"}; registers is None when the log does not say. shared_bytes is the
    static shared memory ptxas allocated (Triton's dynamic shared memory is metadata.shared)."""
    info = {"registers": None, "spill_stores_bytes": 0, "spill_loads_bytes": 0, "stack_bytes": 0,
            "shared_bytes": 0, "local_bytes": 0, "warnings": []}
    if match := _REGISTERS.search(log):
        info["registers"] = int(match.group(1))
    if match := _SPILLS.search(log):
        info["stack_bytes"], info["spill_stores_bytes"], info["spill_loads_bytes"] = (
            int(group) for group in match.groups())
    if match := _SMEM.search(log):
        info["shared_bytes"] = int(match.group(1))
    if match := _RESOURCE_SHARED.search(resource_usage):
        info["shared_bytes"] = int(match.group(1))
    if match := _RESOURCE_LOCAL.search(resource_usage):
        info["local_bytes"] = int(match.group(1))
    info["warnings"] = [_strip_prefix(line) for line in log.splitlines() if _is_warning(line)]
    return info


def _is_warning(line: str) -> bool:
    return ("ptxas warning" in line or "Potential Performance Loss" in line
            or "spilled to local memory" in line)


def _strip_prefix(line: str) -> str:
    return re.sub(r"^ptxas (info|warning)\s*:\s*", "", line.strip())
