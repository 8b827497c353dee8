"""The NVIDIA backend (Triton 3.6 with its CUDA backend): everything the agent does that names
CUDA, PTX, SASS or Nsight Compute.

Compile side (agent process): compile.py (the `compile` method for sm_* targets: worker process,
timeout, SASS and ptxas figures, compile.json), warm_worker.py (the one warm spare compile
worker), tools.py (nvdisasm and cuobjdump from the triton wheel), ptxas.py (ptxas figures).
Compile side (worker process): compile_worker.py (`python -m
strata_agent.backends.nvidia.compile_worker`), spare.py (a spare's warm-up and handover).

Task side: task_worker.py (`python -m strata_agent.backends.nvidia.task_worker`, the process
the core's task_runner starts for `run_task`, `verify`, `time`, `profile` and `ceilings`),
device.py (which GPU, synchronize, CUDA errors, nvidia-smi's GPU list), device_state.py (clocks
from nvidia-smi), launch.py (what a Triton 3.6 launch capture reads from the CUDA backend),
streams.py (the anti-cheat's side-stream monitor over torch.cuda), timing.py (CUDA-event and
CUDA-graph timer), task_time.py (`time`), ceilings.py (bandwidth and matmul ceilings measured
on the GPU), ncu_profile.py (`profile` under Nsight Compute).

The core keeps what does not depend on the device: the server and protocol, compile machinery
shared with Ascend (compile_runner, compile_worker), task loading, verification against the
reference, the anti-cheat op counter, the GPU gate, the roofline cache and speed of light.
Nothing here is imported at the agent's start except these entry points, which import lazily.
"""
from __future__ import annotations

from typing import Callable

TASK_WORKER_MODULE = "strata_agent.backends.nvidia.task_worker"
STAGES = ["ttir", "ttgir", "llir", "ptx", "cubin", "sass"]


def compile_kernel(params: dict, progress: Callable[..., None],
                   on_worker: Callable | None = None) -> dict:
    """The `compile` method for an NVIDIA target (or a target no backend knows)."""
    from .. import ASCEND, local_triton_flavour
    from ...compile_runner import check_param_types
    from ...errors import COMPILE_ERROR, StrataError
    from .compile import run_nvidia_compile
    if local_triton_flavour() == ASCEND:
        check_param_types(params)
        raise StrataError(COMPILE_ERROR, "triton_missing", "this agent's Python has "
                          "triton-ascend, which cannot compile for NVIDIA targets; run the agent "
                          "with the Python that has NVIDIA's triton (.venv)",
                          file=params.get("source_path"), kernel=params.get("kernel"))
    return run_nvidia_compile(params, progress, on_worker)


def describe() -> dict:
    """NVIDIA's entry in `info.backends`."""
    from ... import SUPPORTED_TARGETS
    from .. import NVIDIA, local_triton_flavour
    return {"name": NVIDIA, "targets": list(SUPPORTED_TARGETS),
            "available": local_triton_flavour() == NVIDIA, "stages": list(STAGES)}


def profile(params: dict, progress: Callable[..., None], on_worker: Callable | None = None) -> dict:
    """The `profile` method for an NVIDIA GPU: Nsight Compute."""
    from .ncu_profile import profile as profile_with_ncu
    return profile_with_ncu(params, progress, on_worker)


def visible_gpus() -> list[dict]:
    from .device import gpus_from_nvidia_smi, gpus_from_torch
    gpus = gpus_from_nvidia_smi()
    return gpus if gpus is not None else gpus_from_torch()


def release() -> None:
    """Kills the warm spare compile and task workers; none starts after (agent shutdown)."""
    from .warm_worker import SPARES, TASK_SPARES
    SPARES.close()
    TASK_SPARES.close()


def hand_to_task_spare(request_path, work_dir, stderr_path, env: dict[str, str],
                       timeout_s: float):
    """The warm spare task worker, handed this request: (spare, its progress lines), or None
    when there is none with this environment or it did not take the request (the caller then
    starts a cold worker, with the whole timeout)."""
    import time
    from .warm_worker import TASK_SPARES
    spare = TASK_SPARES.take(env)
    if spare is None:
        return None
    if not spare.hand_over(request_path, work_dir, stderr_path, env, time.monotonic() + timeout_s):
        return None
    return spare, spare.progress_lines()


def replenish_task_spare(env: dict[str, str]) -> None:
    """Starts the next call's spare task worker (it warms up while this call runs)."""
    from .warm_worker import DEFAULT_ARCH, TASK_SPARES
    TASK_SPARES.replenish(env, DEFAULT_ARCH)
