"""Roofline ceilings, cached once per host and device; speed-of-light per task. Worker side.

The backend measures the ceilings (backends/nvidia/ceilings.py: copy bandwidth and matrix rates
per precision); this module keeps them in ~/.cache/strata/ceilings.json, keyed by device name,
driver and torch version (`refresh` measures again), and relates a task's FLOP and byte counts
and its median to them.
"""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Callable

import torch

CACHE_PATH = Path(os.path.expanduser("~/.cache/strata/ceilings.json"))
IMPLAUSIBLE_SOL_PCT = 110.0


def cache_key(device: dict) -> str:
    return f"v2|{device.get('name')}|driver {device.get('driver')}|torch {torch.__version__}"


def load_or_measure(device: dict, measure: Callable[[], dict], refresh: bool = False,
                    measuring=contextlib.nullcontext) -> dict:
    """The cached ceilings of this device, else measured by the backend's `measure` (and cached).
    `measuring` is entered only around a measurement (the GPU gate held alone): reading the cache
    needs no gate, and a suite's timing calls, which all read it, must not queue for the GPU to do
    so (2026-12-06 H100 run: ceilings_wait_s median 7.8 s per task, for a file read)."""
    key = cache_key(device)
    cached = None if refresh else _read_cache().get(key)
    if cached is not None:
        return {**cached, "cached": True, "cache_path": str(CACHE_PATH)}
    with measuring():
        cached = None if refresh else _read_cache().get(key)  # another worker measured meanwhile
        if cached is not None:
            return {**cached, "cached": True, "cache_path": str(CACHE_PATH)}
        ceilings = measure()
        cache = _read_cache()
        cache[key] = ceilings
        CACHE_PATH.parent.mkdir(parents=True, exist_ok=True)
        temporary = CACHE_PATH.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(cache, indent=1) + "\n")
        temporary.replace(CACHE_PATH)  # readers outside the gate never see half a file
    return {**ceilings, "cached": False, "cache_path": str(CACHE_PATH)}


def _read_cache() -> dict:
    try:
        cache = json.loads(CACHE_PATH.read_text()) if CACHE_PATH.is_file() else {}
    except (OSError, ValueError):
        return {}
    return cache if isinstance(cache, dict) else {}


def precision_of(meta: dict, inputs: list) -> str:
    if meta.get("precision"):
        return str(meta["precision"])
    dtypes = {t.dtype for t in inputs if isinstance(t, torch.Tensor) and t.is_floating_point()}
    if torch.bfloat16 in dtypes:
        return "bf16"
    if torch.float16 in dtypes:
        return "fp16"
    return "fp32"


def speed_of_light(counts: dict, median_ms: float | None, ceilings: dict, precision: str) -> dict:
    """Floor time from FLOPs and bytes against the measured ceilings; SOL % and bound class."""
    if not median_ms:
        return {"error": "no time"}
    seconds = median_ms * 1e-3
    bandwidth = ceilings["copy_bandwidth_gbs"] * 1e9
    rate = ceilings["matmul_tflops"].get(precision, ceilings["matmul_tflops"]["fp32"]) * 1e12
    memory_s = counts["bytes"] / bandwidth if counts.get("bytes") else 0.0
    compute_s = counts["flops"] / rate if counts.get("flops") else 0.0
    floor_s = max(memory_s, compute_s)
    sol_pct = 100.0 * floor_s / seconds if floor_s else None
    result = {"precision_ceiling": precision, "memory_floor_ms": memory_s * 1e3,
              "compute_floor_ms": compute_s * 1e3,
              "bound": "memory" if memory_s >= compute_s else "compute",
              "sol_pct": sol_pct,
              "achieved_gbs": counts["bytes"] / seconds / 1e9 if counts.get("bytes") else None,
              "achieved_tflops": counts["flops"] / seconds / 1e12 if counts.get("flops") else None,
              "arithmetic_intensity": (counts["flops"] / counts["bytes"]
                                       if counts.get("flops") and counts.get("bytes") else None)}
    if sol_pct is not None and sol_pct > IMPLAUSIBLE_SOL_PCT:
        result["implausible"] = (f"{sol_pct:.0f}% of the roofline floor: faster than the measured "
                                 "ceilings allow; check the counts or suspect a cheat")
    return result
