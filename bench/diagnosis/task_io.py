"""Loading a task file of bench/diagnosis/tasks as a module, with its int shape globals replaced
(interpret_shapes on the CPU) before get_inputs runs."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

TASKS = Path(__file__).resolve().parent / "tasks"


def load_manifest() -> dict:
    return json.loads((TASKS / "manifest.json").read_text())


def load_task(path: Path, shapes: dict | None = None, name: str | None = None):
    spec = importlib.util.spec_from_file_location(name or f"diagtask_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for key, value in (shapes or {}).items():
        setattr(module, key, value)
    return module


def run_models(module, device: str | None = None):
    """(reference output, ModelNew output) on one fresh draw of the inputs."""
    import torch
    torch.manual_seed(0)
    if device:
        module.DEVICE = device
    init = module.get_init_inputs()
    inputs = module.get_inputs()
    ref = module.Model(*init)(*inputs)
    new = module.ModelNew(*init)(*inputs)
    return ref, new


def rel_error(ref, new) -> float:
    ref = ref.float()
    new = new.float()
    return float((ref - new).norm() / ref.norm().clamp_min(1e-12))


def tolerance(module) -> float:
    task = getattr(module, "STRATA_TASK", {}) or {}
    if "tolerance" in task:
        return float(task["tolerance"])
    return 2e-2


def first_config_only(module) -> None:
    """Under the CPU interpreter an autotuner cannot benchmark (no driver): keep its first config
    so it runs that one without timing."""
    from triton.runtime.autotuner import Autotuner
    for value in vars(module).values():
        if isinstance(value, Autotuner) and len(value.configs) > 1:
            value.configs = value.configs[:1]
