"""Where triton-ascend is: the Python that compiles for Ascend targets, and the tools it uses.

triton-ascend replaces the `triton` package, so on a machine that also compiles for NVIDIA it
lives in a venv of its own (scripts/bootstrap_ascend.sh makes <repo>/.venv-ascend). The compile
worker runs under:
  1. $STRATA_ASCEND_PYTHON, when set (it must exist);
  2. the agent's own Python, when its triton is triton-ascend (an Ascend host's single venv);
  3. <repo>/.venv-ascend/bin/python, when it exists.
bishengir-compile (HIVM and the NPU binary) comes with CANN, not with the wheel: it is used when
it is on PATH.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from ...errors import COMPILE_ERROR, StrataError
from ...tools import triton_package_dir
from . import npu_host
from .targets import ASCEND_TARGETS

ASCEND_PYTHON_VARIABLE = "STRATA_ASCEND_PYTHON"
# A triton-adapter-opt to run instead of the wheel's (a debug build; the tests' crashing one).
ADAPTER_OPT_VARIABLE = "STRATA_ASCEND_ADAPTER_OPT"
BISHENGIR = "bishengir-compile"
REPO_ROOT = Path(__file__).resolve().parents[4]
DEFAULT_VENV = REPO_ROOT / ".venv-ascend"


class AscendUnavailable(Exception):
    """No Python with triton-ascend; the message says where it was looked for."""


def agent_python_has_triton_ascend() -> bool:
    package = triton_package_dir()
    return package is not None and (package / "backends" / "ascend").is_dir()


def ascend_python() -> str:
    """The interpreter that compiles for Ascend; raises AscendUnavailable when there is none."""
    configured = os.environ.get(ASCEND_PYTHON_VARIABLE)
    if configured:
        if not os.access(configured, os.X_OK):
            raise AscendUnavailable(f"{ASCEND_PYTHON_VARIABLE}={configured} is not an "
                                    "executable Python")
        return configured
    if agent_python_has_triton_ascend():
        return sys.executable
    venv_python = DEFAULT_VENV / "bin" / "python"
    if os.access(venv_python, os.X_OK):
        return str(venv_python)
    raise AscendUnavailable(f"no Python with triton-ascend: the agent's own ({sys.executable}) "
                            f"has none, {ASCEND_PYTHON_VARIABLE} is not set and {venv_python} "
                            "does not exist (scripts/bootstrap_ascend.sh creates it)")


def require_ascend_python(source_path: str | None, kernel: str | None) -> str:
    try:
        return ascend_python()
    except AscendUnavailable as missing:
        raise StrataError(COMPILE_ERROR, "triton_missing", str(missing), file=source_path,
                          kernel=kernel) from missing


def bishengir_compile() -> str | None:
    return shutil.which(BISHENGIR)


def installed_version(python: str) -> str | None:
    """triton-ascend's version in the venv of `python`, read from its dist-info folder (no
    process is started, so `info` stays fast)."""
    prefix = Path(python).parent.parent
    found = sorted(prefix.glob("lib/python3*/site-packages/triton_ascend-*.dist-info"))
    if not found:
        return None
    return found[-1].name.removeprefix("triton_ascend-").removesuffix(".dist-info")


def describe_ascend() -> dict:
    """The Ascend entry of `info.backends`."""
    entry = {"name": "ascend", "targets": list(ASCEND_TARGETS),
             "target_socs": {name: target.soc for name, target in ASCEND_TARGETS.items()},
             "stages": ["ttir", "ttadapter", "npubin"], "bishengir_compile": bishengir_compile()}
    try:
        python = ascend_python()
    except AscendUnavailable as missing:
        return {**entry, "available": False, "reason": str(missing), "python": None,
                "triton_ascend": None}
    version = installed_version(python)
    # `triton`: the version of the triton this backend runs (a results file names it); `device`:
    # the NPUs, on a host that has them (a results file names them instead of "cpu (no GPU)").
    device = npu_host.device_name()
    return {**entry, "available": True, "python": python, "triton_ascend": version,
            "triton": f"triton-ascend {version}" if version else None,
            **({"device": device} if device else {})}
