"""Where the triton package is, found without importing triton in the server process (backends
read its backends/ folder; the NVIDIA backend's bundled tools are in backends/nvidia/tools.py)."""
from __future__ import annotations

import importlib.util
from pathlib import Path


def triton_package_dir() -> Path | None:
    found = importlib.util.find_spec("triton")
    if found is None or not found.submodule_search_locations:
        return None
    return Path(list(found.submodule_search_locations)[0])
