"""`run_task` and `verify` for an Ascend target, worker side (npu_task_worker.py runs them under
the Python that has triton-ascend).

The checks are strata_agent.verify's (float64 reference, NaN-poisoned outputs, every anti-cheat
check, glue allowance, reasons merged per kind): `verify_bound_to(device)` points that module's
device hooks at the Ascend worker's device before a Verifier runs. The worker is one process per
call; the hooks are put back when the checks end. What changes against the NVIDIA path:

- models and inputs go to `npu` (torch_npu), or stay on the CPU under triton-ascend's
  interpreter (`interpret`; how the tests run these checks without an NPU);
- the float64 reference runs on the CPU: torch.npu has no float64 for most ops, and a reference
  that cannot run in float64 falls back to the native one, as verify.py already does; outputs are
  compared on the CPU (float64 there too);
- launches are captured by npu_capture.AscendLaunchCapture (triton-ascend 3.2's JIT);
- side streams: torch.npu's stream calls are watched as well as verify's own (NpuStreamMonitor);
- tolerances per dtype (`tolerance_for`): as on NVIDIA GPUs (fp32 1e-4, fp16/bf16 1e-2, fp64 1e-7, ints
  exact), plus `precision: "hf32"` (the cube unit's reduced-mantissa fp32 mode, as tf32 on
  NVIDIA) at 5e-4 like tf32. The figures are Strata's choice, not measured on an NPU.

NEVER RUN ON AN NPU HERE: under the interpreter on a CPU (agent/tests/ascend) only.
"""
from __future__ import annotations

import contextlib
import copy
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import torch

# Relative-norm tolerances, ||out - ref64|| / ||ref64||.
ASCEND_TOLERANCE = {torch.float64: 1e-7, torch.float32: 1e-4, torch.float16: 1e-2,
                    torch.bfloat16: 1e-2}
REDUCED_FP32_TOLERANCE = 5e-4
REDUCED_FP32_PRECISIONS = ("hf32", "tf32")


def tolerance_for(dtype: torch.dtype, meta: dict) -> float:
    if "tolerance" in meta:
        return float(meta["tolerance"])
    if dtype == torch.float32 and meta.get("precision") in REDUCED_FP32_PRECISIONS:
        return REDUCED_FP32_TOLERANCE
    return ASCEND_TOLERANCE.get(dtype, 0.0)


@dataclass
class CheckDevice:
    """Where the candidate runs: `npu` (torch.npu) or `cpu` (triton-ascend's interpreter)."""
    name: str
    synchronize: Callable[[], None]

    def put(self, value: Any) -> Any:
        from ...task_loader import map_tensors
        if isinstance(value, torch.nn.Module):
            return value.to(self.name)
        return map_tensors(value, lambda tensor: tensor.to(self.name))


def cpu_device() -> CheckDevice:
    return CheckDevice("cpu", lambda: None)


def npu_check_device() -> CheckDevice:
    from .npu_task_worker import npu_device
    npu = npu_device()      # raises NpuUnavailable without torch_npu or an NPU
    return CheckDevice("npu", npu.synchronize)


def on_cpu(value: Any) -> Any:
    from ...task_loader import map_tensors
    return map_tensors(value, lambda tensor: tensor.detach().cpu())


def float64_on_cpu(model: Any) -> Any | None:
    """The reference's float64 copy, on the CPU (weights included)."""
    try:
        if isinstance(model, torch.nn.Module):
            return copy.deepcopy(model).to("cpu").double()
        return model
    except Exception:
        return None


class NpuStreamMonitor:
    """verify's StreamMonitor (backends/nvidia/streams.py, the GPU stream calls a task written for
    NVIDIA GPUs may still make) plus torch.npu's stream calls: `torch.npu.Stream`,
    `torch.npu.stream(s)` and `torch.npu.set_stream(s)` with a stream other than the default
    are recorded as uses (work on a side stream escapes timing on the default one), and still
    run. Checked with a stand-in torch.npu on a CPU; never on an NPU."""

    LABELS = ("Stream", "stream", "set_stream")

    def __init__(self) -> None:
        from ..nvidia.streams import StreamMonitor
        self.base = StreamMonitor()
        self.uses = self.base.uses
        self._saved: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> "NpuStreamMonitor":
        self.base.__enter__()
        npu = getattr(torch, "npu", None)
        for name in self.LABELS:
            original = getattr(npu, name, None) if npu is not None else None
            if original is not None:
                self._saved.append((npu, name, original))
                setattr(npu, name, self._recording(npu, name, original))
        return self

    def __exit__(self, *exc: Any) -> None:
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()
        self.base.__exit__(*exc)

    def _recording(self, npu: Any, name: str, original: Any) -> Callable:
        def call(*args: Any, **kwargs: Any) -> Any:
            target = args[0] if args else None
            if name == "Stream" or (target is not None and not _is_npu_default(npu, target)):
                self.uses.append(f"torch.npu.{name}")
            return original(*args, **kwargs)
        return call


def _is_npu_default(npu: Any, stream: Any) -> bool:
    try:
        return bool(stream == npu.default_stream())
    except Exception:
        return False


_HOOKS = ("task_device", "_synchronize", "tolerance_for", "LaunchCapture", "float64_copy",
          "upcast", "draw_inputs", "compare_outputs", "StreamMonitor")


@contextlib.contextmanager
def verify_bound_to(device: CheckDevice, target: str | None) -> Iterator[Any]:
    """strata_agent.verify with its device hooks pointing at `device` while the block runs."""
    from ... import verify
    from ...task_loader import draw_inputs, upcast
    from .npu_capture import AscendLaunchCapture
    saved = {name: getattr(verify, name) for name in _HOOKS}
    compare = saved["compare_outputs"]

    def draw_on_device(task: Any, seed: int) -> tuple[list, list]:
        groups, notes = draw_inputs(task, seed)
        return [device.put(group) for group in groups], notes

    def compare_on_cpu(outputs: Any, references: dict, meta: dict) -> list[dict]:
        exact = references["float64"]
        return compare(on_cpu(outputs), {"native": on_cpu(references["native"]),
                                         "float64": None if exact is None else on_cpu(exact)},
                       meta)

    hooks = {"task_device": lambda: device.name, "_synchronize": device.synchronize,
             "tolerance_for": tolerance_for,
             "LaunchCapture": lambda: AscendLaunchCapture(target),
             "float64_copy": float64_on_cpu, "upcast": lambda value: upcast(on_cpu(value)),
             "draw_inputs": draw_on_device, "compare_outputs": compare_on_cpu,
             "StreamMonitor": NpuStreamMonitor}
    for name, hook in hooks.items():
        setattr(verify, name, hook)
    try:
        yield verify
    finally:
        for name, original in saved.items():
            setattr(verify, name, original)


def verify_on_device(task: Any, params: dict, device: CheckDevice,
                     progress: Callable[..., None],
                     hold: Callable[[], Any] = contextlib.nullcontext) -> dict:
    """`hold`: the gate's shared hold, taken per piece of device work (verify.py)."""
    with verify_bound_to(device, params.get("target")) as verify:
        result = verify.verify_task(task, params, progress, hold=hold)
    result.update(backend="ascend", target=params.get("target"), device=device.name)
    return result


def run_on_device(task: Any, params: dict, device: CheckDevice | None) -> dict:
    """One forward of ModelNew with every launch captured; `device` None: capture only (the
    launches are recorded and skipped, the tensors stay on the CPU)."""
    from ...anticheat import OpCounter
    from ...task_loader import draw_inputs
    from ...task_worker import run_reply
    from .npu_capture import AscendLaunchCapture
    seed = int(params.get("seed", 7))
    place = device or cpu_device()
    with verify_bound_to(place, params.get("target")) as verify:
        _, candidate = verify.build_models(task, seed)
    groups, notes = draw_inputs(task, seed)
    inputs = place.put(groups[0])
    started = time.perf_counter()
    counter = OpCounter()
    with torch.no_grad(), AscendLaunchCapture(params.get("target"),
                                              launch=device is not None) as capture:
        with counter:
            outputs = candidate(*inputs)
        place.synchronize()
    return {**run_reply(task, params, place.name, started, notes, outputs, capture, counter, tolerance_for),
            "backend": "ascend", "target": params.get("target")}
