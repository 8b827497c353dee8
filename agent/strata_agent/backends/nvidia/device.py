"""The CUDA device as the core sees it: the GPUs `info` lists, which GPU a worker's gate names,
the task worker's device and synchronize, and which task errors are CUDA errors. Never imports
torch: it uses the torch a task already loaded, or asks nvidia-smi."""
from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys

_GPU_QUERY = "name,compute_cap,memory.total,driver_version"
DEVICE_ERROR_KIND = "cuda_error"


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
    try:
        importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
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


def gpu_visible() -> bool:
    """Whether nvidia-smi lists a GPU (the task runner's memory cap is off for a GPU run)."""
    return bool(gpus_from_nvidia_smi())


def hide_gpus(env: dict[str, str]) -> None:
    """A worker that must run on the CPU (capture only, the interpreter) sees no GPU."""
    env["CUDA_VISIBLE_DEVICES"] = ""


def gate_device_name() -> str:
    """The GPU a worker's gate is for: its UUID when torch already sees it (Slurm jobs confined to
    different GPUs all see theirs as index 0), else CUDA_VISIBLE_DEVICES (set per worker group by
    the host), else "all"."""
    return _device_uuid() or os.environ.get("CUDA_VISIBLE_DEVICES") or "all"


def _device_uuid() -> str | None:
    """The UUID of the GPU this worker uses (device 0), if torch is loaded and sees one; the
    gate never imports torch itself."""
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_available():
            uuid = getattr(torch.cuda.get_device_properties(0), "uuid", None)
            return str(uuid) if uuid else None
    except Exception:  # noqa: BLE001 - a broken CUDA context: fall back to the index
        return None
    return None


def task_device() -> str:
    """Where a task's models and inputs go in the task worker."""
    import torch
    return "cuda" if torch.cuda.is_available() else "cpu"


def synchronize() -> None:
    """Waits for the GPU's queued work; nothing when no CUDA context was made."""
    import torch
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.synchronize()


def synchronize_if_available() -> None:
    """After a captured forward: waits for the GPU whenever torch sees one."""
    import torch
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def is_device_error(message: str) -> bool:
    """A CUDA error or illegal access: the context is unusable after it."""
    return "CUDA error" in message or "illegal memory access" in message


NO_DEVICE_KIND = "no_device"


def is_no_device_error(message: str) -> bool:
    """torch sees no GPU (none visible, or a CPU-only build): the host's clients say so plainly
    instead of showing the traceback (the app's host report reads the kind, not the text)."""
    return any(words in message for words in
               ("No CUDA GPUs are available", "not compiled with CUDA", "no NVIDIA driver"))


def leaves_context_broken(message: str) -> bool:
    """What verify reads as a dead context, after which it stops checking."""
    return "CUDA error" in message or "illegal" in message.lower()
