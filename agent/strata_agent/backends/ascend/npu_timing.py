"""Kernel timing on an Ascend NPU with torch.npu events, as triton-ascend's own do_bench does
(`torch.npu.Event(enable_timing=True)`, `torch.npu.synchronize()`; ASCEND-NOTES.md section 3).

NEVER RUN ON AN NPU HERE: torch_npu needs CANN's libraries. The tests drive it with a stand-in
device module whose events report given durations, which checks the bookkeeping (warm-up,
one synchronize per batch, samples in order, statistics), not any NPU figure.

Each repetition is bracketed by its own pair of events, a batch of repetitions is synchronized
once, and the samples are summarized as the CUDA timer's (timing.summarize: median, IQR, the
median's confidence). No L2 flush: the agent does not know an Ascend part's L2 size, so the
result says `"l2": "not_flushed"` instead of guessing a buffer size.
"""
from __future__ import annotations

import time
from typing import Any, Callable


def npu_device() -> Any:
    """torch.npu, once torch_npu has registered it."""
    import torch
    import torch_npu  # noqa: F401  (registers torch.npu)
    return torch.npu


def time_with_events(launch: Callable[[], Any], device: Any, repetitions: int = 100,
                     warmup: int = 3, batch: int = 10) -> list[float]:
    """Milliseconds per launch, one sample per repetition."""
    for _ in range(warmup):
        launch()
    device.synchronize()
    samples: list[float] = []
    while len(samples) < repetitions:
        pending = []
        for _ in range(min(batch, repetitions - len(samples))):
            start = device.Event(enable_timing=True)
            end = device.Event(enable_timing=True)
            start.record()
            launch()
            end.record()
            pending.append((start, end))
        device.synchronize()
        samples.extend(start.elapsed_time(end) for start, end in pending)
    return samples


def timing_result(launch: Callable[[], Any], device: Any, repetitions: int = 100,
                  warmup: int = 3) -> dict:
    """The samples' summary in the shape of the CUDA timer's candidates (timing.report)."""
    from ...timing import summarize
    started = time.perf_counter()
    samples = time_with_events(launch, device, repetitions, warmup)
    return {"method": "npu_events", "l2": "not_flushed", "error": None,
            "notes": ["L2 not flushed: the agent does not know this device's L2 size"],
            "timing_s": round(time.perf_counter() - started, 3), **summarize(samples)}
