"""Whether this host can time and profile on an Ascend NPU, and if not, why (asked before any
worker starts, so a host without an NPU answers at once and clearly).

Three things are needed (ASCEND-NOTES.md sections 3, 4 and 9):
  - CANN, the runtime torch_npu and msprof link against: its install sets ASCEND_HOME_PATH (or
    ASCEND_TOOLKIT_HOME); triton-ascend's own driver refuses to start without it
    ("ASCEND_HOME_PATH is not set");
  - an NPU: the driver's device files /dev/davinci<N>, or `npu-smi` on PATH;
  - for `profile`, `msprof` on PATH (it comes with CANN's toolkit).
torch_npu itself is checked by the worker, which is the process that imports it.

NEVER RUN ON AN NPU HERE: these are the documented markers of an Ascend host, checked on hosts
without one (and on a stand-in host in the tests).
"""
from __future__ import annotations

import glob
import os
import shutil

CANN_VARIABLES = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME")
NPU_DEVICE_GLOB = "/dev/davinci[0-9]*"
NPU_SMI = "npu-smi"
MSPROF = "msprof"

# `reason` values of an unavailable time or profile (agent/PROTOCOL.md).
NO_CANN = "no_cann"
NO_NPU = "no_npu"
NO_MSPROF = "no_msprof"
NO_TORCH_NPU = "no_torch_npu"


def cann_home() -> str | None:
    for variable in CANN_VARIABLES:
        value = os.environ.get(variable)
        if value and os.path.isdir(value):
            return value
    return None


def npu_present() -> bool:
    return bool(glob.glob(NPU_DEVICE_GLOB)) or shutil.which(NPU_SMI) is not None


def msprof_path() -> str | None:
    return shutil.which(MSPROF)


def unavailable(need_msprof: bool) -> dict | None:
    """None when the host has what timing (and, with need_msprof, profiling) needs; else
    {"reason", "message"} naming the first thing missing."""
    if cann_home() is None:
        return {"reason": NO_CANN, "message": "CANN is not installed here (neither "
                f"{' nor '.join(CANN_VARIABLES)} names a folder): torch_npu and msprof need "
                "its runtime, so nothing can run on an Ascend NPU from this host"}
    if not npu_present():
        return {"reason": NO_NPU, "message": "no Ascend NPU on this host (no "
                f"{NPU_DEVICE_GLOB} device file and no {NPU_SMI} on PATH)"}
    if need_msprof and msprof_path() is None:
        return {"reason": NO_MSPROF, "message": f"{MSPROF} is not on PATH (it comes with "
                "CANN's toolkit: source set_env.sh of the CANN install)"}
    return None


def device_name() -> str | None:
    """How a results file names this host's NPUs, when it can run on them (CANN and a device):
    "Ascend NPU x<device files>". The exact model comes from torch_npu, which only workers import."""
    if unavailable(need_msprof=False) is not None:
        return None
    count = len(glob.glob(NPU_DEVICE_GLOB))
    return f"Ascend NPU x{count}" if count else "Ascend NPU"


def describe() -> dict:
    """What `info` may say of this host's NPU side."""
    missing = unavailable(need_msprof=True)
    return {"npu_available": missing is None or missing["reason"] == NO_MSPROF,
            "msprof": msprof_path(), "cann_home": cann_home(),
            **({"npu_reason": missing["message"]} if missing else {})}
