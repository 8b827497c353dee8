"""Method `info`: versions, GPUs, targets. Never imports torch unless it must ask it about GPUs
(the GPU list is the NVIDIA backend's: backends/nvidia/device.py)."""
from __future__ import annotations

import importlib.metadata
import platform
import sys

from . import AGENT_VERSION, PROTOCOL_VERSION, SUPPORTED_TARGETS
from .backends import backends_info, visible_gpus

METHODS = ["info", "compile", "ast", "shutdown", "run_task", "verify", "time", "profile",
           "ceilings"]


def package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def info_result() -> dict:
    return {
        "protocol": PROTOCOL_VERSION,
        "agent_version": AGENT_VERSION,
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "platform": platform.platform(),
        "triton": package_version("triton"),
        "torch": package_version("torch"),
        "gpus": visible_gpus(),
        "targets": list(SUPPORTED_TARGETS),
        "default_target": "sm_90",
        "backends": backends_info(),
        "methods": list(METHODS),
    }
