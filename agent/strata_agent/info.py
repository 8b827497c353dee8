"""Method `info`: versions, GPUs, targets. Never imports torch unless it must ask it about GPUs."""
from __future__ import annotations

import importlib.metadata
import platform
import shutil
import subprocess
import sys

from . import AGENT_VERSION, PROTOCOL_VERSION, SUPPORTED_TARGETS
from .backends import backends_info

_GPU_QUERY = "name,compute_cap,memory.total,driver_version"
METHODS = ["info", "compile", "ast", "shutdown", "run_task", "verify", "time", "profile",
           "ceilings"]


def package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def gpus_from_nvidia_smi() -> list[dict] | None:
    """None when nvidia-smi is absent or fails; otherwise one entry per GPU."""
    tool = shutil.which("nvidia-smi")
    if tool is None:
        return None
    try:
        completed = subprocess.run([tool, f"--query-gpu={_GPU_QUERY}",
                                    "--format=csv,noheader,nounits"],
                                   capture_output=True, text=True, timeout=15, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if completed.returncode != 0:
        return None
    gpus = []
    for index, line in enumerate(completed.stdout.strip().splitlines()):
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 4:
            continue
        name, capability, memory_mib, driver = fields
        gpus.append({"index": index, "name": name, "target": "sm_" + capability.replace(".", ""),
                     "memory_mib": int(memory_mib) if memory_mib.isdigit() else None,
                     "driver": driver, "source": "nvidia-smi"})
    return gpus


def gpus_from_torch() -> list[dict]:
    if package_version("torch") is None:
        return []
    try:
        import torch  # only reached when nvidia-smi could not tell
        if not torch.cuda.is_available():
            return []
        gpus = []
        for index in range(torch.cuda.device_count()):
            major, minor = torch.cuda.get_device_capability(index)
            properties = torch.cuda.get_device_properties(index)
            gpus.append({"index": index, "name": properties.name, "target": f"sm_{major}{minor}",
                         "memory_mib": properties.total_memory // (1 << 20), "driver": None,
                         "source": "torch"})
        return gpus
    except Exception:  # a broken CUDA setup must not break `info`
        return []


def info_result() -> dict:
    gpus = gpus_from_nvidia_smi()
    return {
        "protocol": PROTOCOL_VERSION,
        "agent_version": AGENT_VERSION,
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "platform": platform.platform(),
        "triton": package_version("triton"),
        "torch": package_version("torch"),
        "gpus": gpus if gpus is not None else gpus_from_torch(),
        "targets": list(SUPPORTED_TARGETS),
        "default_target": "sm_90",
        "backends": backends_info(),
        "methods": list(METHODS),
    }
