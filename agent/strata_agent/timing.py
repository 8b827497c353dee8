"""Timing statistics every backend's timer reports the same way (backends/nvidia/timing.py: GPU
events and graph replay; backends/ascend/npu_timing.py: torch.npu events): the median, quartiles and
the median's 95% confidence half-width (1.57 * IQR / sqrt(n), McGill et al.) of a candidate's
samples, and the relative difference of two medians.
"""
from __future__ import annotations

import math
import statistics


def summarize(samples: list[float]) -> dict:
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)
    quartiles = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else [ordered[0]] * 3
    median = statistics.median(ordered)
    iqr = quartiles[2] - quartiles[0]
    return {"n": len(ordered), "median_ms": median, "q1_ms": quartiles[0], "q3_ms": quartiles[2],
            "iqr_ms": iqr, "min_ms": ordered[0], "max_ms": ordered[-1],
            "mean_ms": statistics.fmean(ordered),
            "median_ci_rel": (1.57 * iqr / math.sqrt(len(ordered)) / median) if median else None}


def report(candidates: list) -> dict:
    """Per candidate (name, method, flush_l2, error, notes, stats()): its timing entry."""
    return {c.name: {"method": c.method, "l2": "flushed" if c.flush_l2 else "warm",
                     "error": c.error, "notes": c.notes, **c.stats()} for c in candidates}


def median_difference(stats_a: dict, stats_b: dict) -> float | None:
    if not stats_a.get("median_ms") or not stats_b.get("median_ms"):
        return None
    return abs(stats_a["median_ms"] - stats_b["median_ms"]) / min(stats_a["median_ms"],
                                                                   stats_b["median_ms"])
