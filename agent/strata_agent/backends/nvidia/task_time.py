"""Method `time` on an NVIDIA GPU, worker side: the candidate against its baselines, interleaved
in one process.

Candidates (param `candidates`, in this order by default):
  triton                ModelNew of each task (for several tasks: `triton:<task name>`)
  triton#2              the first task's ModelNew again, as an independent second measurement
                        (param `self_check`): the spread between two timings of one version
  eager                 Model, the PyTorch reference
  compile               torch.compile(Model), default mode
  compile-max-autotune  torch.compile(Model, mode="max-autotune-no-cudagraphs"): the timer
                        replays its own CUDA graph for every candidate, so Inductor's graphs
                        would be nested; same method for all
Param `warm_l2`: names also timed without the L2 flush (as `<name>/warm-l2`).
"""
from __future__ import annotations

import platform
import time
from typing import Any, Callable

import torch

from ... import AGENT_VERSION, gpu_gate
from ...roofline import precision_of, speed_of_light
from ...task_loader import Task, draw_inputs, load_task, tensors_in, work_counts
from ...timing import median_difference, report
from ...verify import build_models
from .ceilings import load_or_measure
from .device_state import gpu_state
from .timing import Candidate, Timer

DEFAULT_CANDIDATES = ["triton", "eager", "compile", "compile-max-autotune"]


def versions() -> dict:
    import triton
    return {"python": platform.python_version(), "torch": torch.__version__,
            "triton": triton.__version__, "cuda": torch.version.cuda,
            "agent": AGENT_VERSION}


def device_description() -> dict:
    properties = torch.cuda.get_device_properties(0)
    state = gpu_state()
    gpu = state["gpus"][0] if state.get("gpus") else {}
    return {"name": properties.name, "capability": f"sm_{properties.major}{properties.minor}",
            "multiprocessors": properties.multi_processor_count,
            "l2_bytes": getattr(properties, "L2_cache_size", None),
            "memory_bytes": properties.total_memory, "driver": gpu.get("driver_version")}


def _forward(model: Any, inputs: list) -> Callable[[], Any]:
    def run() -> Any:
        with torch.no_grad():
            return model(*inputs)
    return run


def build_candidates(tasks: list[Task], names: list[str], inputs: list, progress) -> tuple[
        list[Candidate], dict]:
    first = tasks[0]
    reference, _ = build_models(first, 7)
    factories: dict[str, Callable[[], Callable[[], Any]]] = {
        "eager": lambda: _forward(reference, inputs),
        "compile": lambda: _forward(torch.compile(reference), inputs),
        "compile-max-autotune": lambda: _forward(
            torch.compile(reference, mode="max-autotune-no-cudagraphs"), inputs),
    }
    for index, task in enumerate(tasks):
        label = "triton" if len(tasks) == 1 else f"triton:{task.name}"
        factories[label] = (lambda task=task: _forward(build_models(task, 7)[1], inputs))
        if index == 0:
            factories["triton#2"] = lambda: _forward(build_models(first, 7)[1], inputs)
    expanded = []
    for name in names:
        if name == "triton" and len(tasks) > 1:
            expanded.extend(f"triton:{task.name}" for task in tasks)
        else:
            expanded.append(name)
    candidates, errors = [], {}
    for name in expanded:
        if name not in factories:
            errors[name] = f"unknown candidate '{name}'; known: {', '.join(sorted(factories))}"
            continue
        progress(f"preparing candidate {name}")
        try:
            candidates.append(Candidate(name, factories[name]()))
        except Exception as error:
            errors[name] = f"{type(error).__name__}: {str(error)[:400]}"
    return candidates, errors


def time_tasks(paths: list[str], params: dict, progress) -> dict:
    tasks = [load_task(path) for path in paths]
    if not torch.cuda.is_available():
        raise RuntimeError("timing needs a CUDA GPU; torch.cuda.is_available() is False")
    for task in tasks:
        task.set_shape(params.get("shape") or {})
    groups, notes = draw_inputs(tasks[0], int(params.get("seed", 7)))
    inputs = groups[0]
    names = list(params.get("candidates") or DEFAULT_CANDIDATES)
    if params.get("self_check") and "triton#2" not in names:
        names.insert(names.index("triton") + 1 if "triton" in names else 0, "triton#2")
    candidates, errors = build_candidates(tasks, names, inputs, progress)
    for name in params.get("warm_l2", []):
        for candidate in list(candidates):
            if candidate.name == name:
                candidates.append(Candidate(f"{name}/warm-l2", candidate.fn, flush_l2=False))
    timer = Timer(min_reps=int(params.get("min_reps", 30)),
                  time_cap_s=float(params.get("time_cap_s", 3.0)),
                  target_ci=float(params.get("target_ci", 0.005)),
                  use_graph=bool(params.get("cuda_graph", True)))
    gate = gpu_gate.from_params(params)
    with gate.shared("warmup"):  # beside other workers' checks and warm-ups
        progress(f"warming up {', '.join(c.name for c in candidates)}")
        ready = timer.prepare_all(candidates)
    with gate.exclusive("measure"):  # alone on the GPU
        state_before = gpu_state()
        progress(f"timing {', '.join(c.name for c in ready)}")
        started = time.perf_counter()
        stop_reason = timer.measure_prepared(ready)
        timing_s = round(time.perf_counter() - started, 2)
        state_after = gpu_state()
    results = report(candidates)
    for name, message in errors.items():
        results[name] = {"error": message, "n": 0}
    result = {"tasks": [task.path for task in tasks], "shape": params.get("shape"),
              "device": device_description(),
              "versions": versions(), "clocks_before": state_before, "clocks_after": state_after,
              "stop_reason": stop_reason, "timing_s": timing_s,
              "l2_flush_bytes": timer.flush_buffer.numel() * 4, "input_notes": notes,
              "candidates": results, "comparisons": comparisons(results)}
    if params.get("roofline", True):
        result["roofline"] = roofline_section(tasks[0], candidates, inputs, result["device"],
                                              bool(params.get("refresh_ceilings")), progress, gate)
    if gate.active:
        result["gpu_gate"] = gate.report()
    return result


def comparisons(results: dict) -> dict:
    out: dict[str, Any] = {}
    triton = results.get("triton") or next((v for k, v in results.items()
                                            if k.startswith("triton:")), None)
    if triton and triton.get("median_ms"):
        for name in ("eager", "compile", "compile-max-autotune"):
            if results.get(name, {}).get("median_ms"):
                out[f"speedup_vs_{name}"] = results[name]["median_ms"] / triton["median_ms"]
    if "triton" in results and "triton#2" in results:
        out["self_check_median_diff"] = median_difference(results["triton"], results["triton#2"])
    for name, stats in results.items():
        if name.endswith("/warm-l2"):
            cold = results.get(name[: -len("/warm-l2")], {})
            if cold.get("median_ms") and stats.get("median_ms"):
                out[f"l2_flush_effect:{name[: -len('/warm-l2')]}"] = \
                    cold["median_ms"] / stats["median_ms"]
    return out


def roofline_section(task: Task, candidates: list[Candidate], inputs: list, device: dict,
                     refresh: bool, progress, gate: gpu_gate.GpuGate) -> dict:
    progress("roofline ceilings")
    try:
        # Only a first measurement on this device holds the GPU alone; a cached read takes no gate.
        ceilings = load_or_measure(device, refresh, lambda: gate.exclusive("ceilings"))
    except Exception as error:
        return {"error": f"ceilings: {type(error).__name__}: {error}"}
    with gate.shared("warmup"), torch.no_grad():  # the reference's run for the work counts
        outputs = build_models(task, 7)[0](*inputs)
    counts = work_counts(task, inputs, outputs)
    precision = precision_of(task.meta, tensors_in(inputs))
    per_candidate = {c.name: speed_of_light(counts, c.stats().get("median_ms"), ceilings, precision)
                     for c in candidates if c.samples_ms}
    return {"ceilings": ceilings, "counts": counts, "category": task.meta.get("category"),
            "per_candidate": per_candidate}
