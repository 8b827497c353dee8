"""The backend registry: which backend module compiles, times and profiles a request.

A compile request's target names its backend: `sm_80`, `sm_90`, `sm_100` are NVIDIA's (Triton
3.6, backends/nvidia); `ascend910_95` and `ascend910b3` are Huawei Ascend's (triton-ascend,
backends/ascend). A target no backend knows goes to NVIDIA's compile, which answers it with
`bad_target` as before. `run_task`, `verify`, `time` and `profile` with an Ascend `target` go to
backends/ascend/npu_tasks.py (the NPU, torch.npu events, msprof); any other target, or none, to
NVIDIA's task methods (task_runner with NVIDIA's task worker; its profiler for `profile`).

Which triton a backend runs is the other half of the choice: triton-ascend's wheel replaces the
`triton` package, so the two never share a Python. The NVIDIA backend compiles with the agent's
own Python; the Ascend backend with the agent's own Python when that one has triton-ascend, else
with a second one (backends/ascend/environment.py). Nothing here imports triton.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import SUPPORTED_TARGETS
from ..tools import triton_package_dir
from . import nvidia
from .ascend import targets as ascend_targets

NVIDIA = "nvidia"
ASCEND = "ascend"


@dataclass(frozen=True)
class Backend:
    name: str
    targets: tuple[str, ...]
    compile: Callable[..., dict]        # (params, progress, on_worker=None) -> compile result
    describe: Callable[[], dict]        # the backend's entry in `info.backends`


def local_triton_flavour() -> str | None:
    """Which triton the agent's own Python imports: "nvidia", "ascend" or None (no triton). Read
    from the package's backends/ folder, so nothing is imported."""
    package = triton_package_dir()
    if package is None:
        return None
    if (package / "backends" / "ascend").is_dir():
        return ASCEND
    return NVIDIA if (package / "backends" / "nvidia").is_dir() else None


def _ascend_compile(params: dict, progress: Callable[..., None],
                    on_worker: Callable | None = None) -> dict:
    from .ascend.compile import run_ascend_compile
    return run_ascend_compile(params, progress, on_worker)


def _ascend_describe() -> dict:
    from .ascend.environment import describe_ascend
    return describe_ascend()


BACKENDS = (
    Backend(NVIDIA, tuple(SUPPORTED_TARGETS), nvidia.compile_kernel, nvidia.describe),
    Backend(ASCEND, tuple(ascend_targets.ASCEND_TARGETS), _ascend_compile, _ascend_describe),
)


def requested_target(params: Any) -> str | None:
    """The target a compile request asks for: `target`, else `spec.target`; None when neither is
    a string (the backend's own parameter checks then answer)."""
    if not isinstance(params, dict):
        return None
    target = params.get("target")
    if target is None and isinstance(params.get("spec"), dict):
        target = params["spec"].get("target")
    return target if isinstance(target, str) else None


def backend_for_target(target: str | None) -> Backend:
    for backend in BACKENDS:
        if target in backend.targets:
            return backend
    return BACKENDS[0]   # NVIDIA's compile reports an unknown target as bad_target


def run_compile(params: Any, progress: Callable[..., None],
                on_worker: Callable | None = None) -> dict:
    """The `compile` method: the requested target's backend compiles."""
    return backend_for_target(requested_target(params)).compile(params, progress, on_worker)


def is_ascend_target(params: Any) -> bool:
    return isinstance(params, dict) and params.get("target") in ascend_targets.ASCEND_TARGETS


def run_run_task(params: Any, progress: Callable[..., None],
                 on_worker: Callable | None = None) -> dict:
    """The `run_task` method: an Ascend `target` runs under triton-ascend (on the NPU, or
    capture-only / interpreted on the CPU); any other request as before."""
    if is_ascend_target(params):
        from .ascend.npu_tasks import run_on_npu
        return run_on_npu(params, progress, on_worker)
    from ..task_runner import run_task
    return run_task(params, progress, on_worker)


def run_verify(params: Any, progress: Callable[..., None],
               on_worker: Callable | None = None) -> dict:
    """The `verify` method: an Ascend `target` is checked on the NPU (float64 reference on the
    CPU); any other request as before."""
    if is_ascend_target(params):
        from .ascend.npu_tasks import verify_on_npu
        return verify_on_npu(params, progress, on_worker)
    from ..task_runner import verify
    return verify(params, progress, on_worker)


def run_time(params: Any, progress: Callable[..., None], on_worker: Callable | None = None) -> dict:
    """The `time` method: an Ascend `target` is timed on the NPU with torch.npu events; any
    other request (no target: NVIDIA's GPU) as before."""
    if is_ascend_target(params):
        from .ascend.npu_tasks import time_on_npu
        return time_on_npu(params, progress, on_worker)
    from ..task_runner import time_task
    return time_task(params, progress, on_worker)


def run_profile(params: Any, progress: Callable[..., None],
                on_worker: Callable | None = None) -> dict:
    """The `profile` method: `msprof op` for an Ascend `target`, else NVIDIA's profiler."""
    if is_ascend_target(params):
        from .ascend.npu_tasks import profile_on_npu
        return profile_on_npu(params, progress, on_worker)
    return nvidia.profile(params, progress, on_worker)


def backends_info() -> list[dict]:
    return [backend.describe() for backend in BACKENDS]


def visible_gpus() -> list[dict]:
    """The GPUs `info` lists: NVIDIA's (nvidia-smi, else torch); an Ascend host's NPUs are the
    Ascend backend's (`info.backends`)."""
    return nvidia.visible_gpus()


def release_backends() -> None:
    """Agent shutdown: stops what a backend keeps running between calls (NVIDIA's warm spare
    compile worker)."""
    nvidia.release()
