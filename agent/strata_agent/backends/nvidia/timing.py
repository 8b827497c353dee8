"""Timing on a CUDA GPU, worker side (METHOD.md, TRITON-3.6-NOTES "Measuring honestly").

Every candidate is warmed up, then captured into a CUDA graph when it can be (graph replay removes
launch gaps; a candidate that cannot be captured is launched directly, and says so). Before
each repetition an L2-sized-plus buffer is overwritten so the repetition starts with a cold L2
(unless the candidate asks for a warm one). Each repetition is bracketed by CUDA events.
Candidates are interleaved repetition by repetition, so an A/B comparison sees the same clocks
and thermal state. Repetitions continue until every median's 95% confidence half-width
(1.57 * IQR / sqrt(n), McGill et al.) is under `target_ci` of the median, or the time cap.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

from ...timing import summarize

FLUSH_FACTOR = 4  # the flush buffer is this many times the L2 size


@dataclass
class Candidate:
    name: str
    fn: Callable[[], Any]
    flush_l2: bool = True
    method: str = "cuda_graph"
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    samples_ms: list[float] = field(default_factory=list)
    _launch: Callable[[], Any] | None = None
    _graph: Any = None

    def prepare(self, warmup_ms: float, use_graph: bool) -> None:
        started = time.perf_counter()
        runs = 0
        while runs < 3 or (time.perf_counter() - started) * 1e3 < warmup_ms and runs < 200:
            self.fn()
            torch.cuda.synchronize()
            runs += 1
        self._launch = self.fn
        self.method = "events"
        if use_graph:
            try:
                self._graph = capture_graph(self.fn)
                self._launch = self._graph.replay
                self.method = "cuda_graph"
            except Exception as error:  # sync, host reads or RNG in the forward: launch directly
                self.notes.append(f"CUDA graph capture failed ({type(error).__name__}: "
                                  f"{str(error)[:200]}); timed with direct launches")
                torch.cuda.synchronize()

    def stats(self) -> dict:
        return summarize(self.samples_ms)


def capture_graph(fn: Callable[[], Any]):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn()
    torch.cuda.synchronize()
    return graph


class Timer:
    """Interleaved timing of several candidates on the current CUDA device."""

    def __init__(self, min_reps: int = 30, max_reps: int = 3000, time_cap_s: float = 3.0,
                 target_ci: float = 0.005, warmup_ms: float = 50.0, use_graph: bool = True):
        self.min_reps = min_reps
        self.max_reps = max_reps
        self.time_cap_s = time_cap_s
        self.target_ci = target_ci
        self.warmup_ms = warmup_ms
        self.use_graph = use_graph
        l2_bytes = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 64 << 20)
        self.l2_bytes = int(l2_bytes)
        self.flush_buffer = torch.empty(FLUSH_FACTOR * self.l2_bytes // 4, dtype=torch.int32,
                                        device="cuda")

    def measure(self, candidates: list[Candidate]) -> str:
        """Fills each candidate's samples; returns why it stopped."""
        return self.measure_prepared(self.prepare_all(candidates))

    def prepare_all(self, candidates: list[Candidate]) -> list[Candidate]:
        """Warms every candidate up (JIT, torch.compile, graph capture); returns those that
        can be timed. Apart from measure_prepared: the GPU gate lets other workers run beside
        the warm-ups but not beside the measurement."""
        ready = []
        for candidate in candidates:
            try:
                candidate.prepare(self.warmup_ms, self.use_graph)
                ready.append(candidate)
            except Exception as error:
                candidate.error = f"{type(error).__name__}: {str(error)[:500]}"
                torch.cuda.synchronize()
        return ready

    def measure_prepared(self, ready: list[Candidate]) -> str:
        started = time.perf_counter()
        batch = 10
        while ready:
            self._round(ready, batch)
            if all(self._converged(c) for c in ready):
                return "converged"
            if time.perf_counter() - started > self.time_cap_s:
                return "time_cap"
            if min(len(c.samples_ms) for c in ready) >= self.max_reps:
                return "max_reps"
        return "nothing_to_time"

    def _round(self, candidates: list[Candidate], batch: int) -> None:
        pending = []
        for _ in range(batch):
            for candidate in candidates:
                if candidate.flush_l2:
                    self.flush_buffer.zero_()
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                candidate._launch()
                end.record()
                pending.append((candidate, start, end))
        torch.cuda.synchronize()
        for candidate, start, end in pending:
            candidate.samples_ms.append(start.elapsed_time(end))

    def _converged(self, candidate: Candidate) -> bool:
        if len(candidate.samples_ms) < self.min_reps:
            return False
        ci = summarize(candidate.samples_ms)["median_ci_rel"]
        return ci is not None and ci <= self.target_ci
