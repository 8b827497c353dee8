"""The NVIDIA tools bundled with the triton wheel (nvdisasm, cuobjdump), found without importing
triton in the server process."""
from __future__ import annotations

import subprocess
from pathlib import Path

from ...tools import triton_package_dir


def bundled_tool(name: str) -> Path | None:
    package = triton_package_dir()
    if package is None:
        return None
    path = package / "backends" / "nvidia" / "bin" / name
    return path if path.is_file() else None


class ToolError(Exception):
    pass


def run_tool(name: str, arguments: list[str], timeout_s: float = 60.0) -> str:
    """Runs a bundled tool and returns its stdout; raises ToolError with its stderr otherwise."""
    tool = bundled_tool(name)
    if tool is None:
        raise ToolError(f"{name} not found in the triton package")
    try:
        completed = subprocess.run([str(tool), *arguments], capture_output=True, text=True,
                                   timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired as error:
        raise ToolError(f"{name} timed out after {timeout_s} s") from error
    if completed.returncode != 0:
        raise ToolError(f"{name} exited with {completed.returncode}: {completed.stderr.strip()}")
    return completed.stdout


def disassemble(cubin_path: Path) -> str:
    """SASS with line info (-g) and inlined-at frames (-gi): `//## File "k.py", line 19`."""
    return run_tool("nvdisasm", ["-c", "-g", "-gi", str(cubin_path)])


def resource_usage(cubin_path: Path) -> str:
    return run_tool("cuobjdump", ["--dump-resource-usage", str(cubin_path)])
