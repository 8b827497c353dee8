"""Kernel timing on an Ascend NPU with torch.npu events, as triton-ascend's own do_bench does
(`torch.npu.Event(enable_timing=True)`, `torch.npu.synchronize()`; ASCEND-NOTES.md section 3).

NEVER RUN ON AN NPU HERE: torch_npu needs CANN's libraries. The tests drive it with a stand-in
device module whose events report given durations, which checks the bookkeeping (warm-up,
one synchronize per batch, samples in order, statistics), not any NPU figure.

Each repetition is bracketed by its own pair of events, a batch of repetitions is synchronized
once, and the samples are summarized as the NVIDIA timer's (timing.summarize: median, IQR, the
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


def time_interleaved(launches: dict[str, Callable[[], Any]], device: Any, repetitions: int = 100,
                     warmup: int = 3, batch: int = 10) -> tuple[dict[str, list[float]],
                                                                dict[str, str]]:
    """Several candidates timed in turns: each round runs a batch of repetitions of every
    candidate (each launch between its own events), then synchronizes once, so a drift of the
    device (clocks, temperature) falls on all of them alike, as the NVIDIA timer interleaves.
    Returns (samples per name, error per name): a candidate that raises is dropped with its
    error, the others go on."""
    errors: dict[str, str] = {}
    live = dict(launches)
    for name, launch in list(live.items()):
        try:
            for _ in range(warmup):
                launch()
            device.synchronize()
        except Exception as error:
            errors[name] = f"{type(error).__name__}: {error}"[:400]
            del live[name]
    samples: dict[str, list[float]] = {name: [] for name in live}
    done = 0
    while live and done < repetitions:
        count = min(batch, repetitions - done)
        pending: dict[str, list] = {}
        for name, launch in list(live.items()):
            pairs = []
            try:
                for _ in range(count):
                    start = device.Event(enable_timing=True)
                    end = device.Event(enable_timing=True)
                    start.record()
                    launch()
                    end.record()
                    pairs.append((start, end))
            except Exception as error:
                errors[name] = f"{type(error).__name__}: {error}"[:400]
                del live[name]
                continue
            pending[name] = pairs
        device.synchronize()
        for name, pairs in pending.items():
            samples[name].extend(start.elapsed_time(end) for start, end in pairs)
        done += count
    return {name: values for name, values in samples.items() if name in live}, errors


def interleaved_results(launches: dict[str, Callable[[], Any]], device: Any,
                        repetitions: int = 100, warmup: int = 3) -> dict[str, dict]:
    """Each candidate's summary in the shape of the NVIDIA timer's (timing.report), or
    {"error", "n": 0} for one that raised."""
    from ...timing import summarize
    started = time.perf_counter()
    samples, errors = time_interleaved(launches, device, repetitions, warmup)
    spent = round(time.perf_counter() - started, 3)
    results: dict[str, dict] = {}
    for name in launches:
        if name in errors:
            results[name] = {"method": "npu_events", "error": errors[name], "n": 0}
            continue
        results[name] = {"method": "npu_events", "l2": "not_flushed", "error": None,
                         "notes": ["L2 not flushed: the agent does not know this device's L2 "
                                   "size", "interleaved with the other candidates"],
                         "timing_s": spent, **summarize(samples[name])}
    return results
