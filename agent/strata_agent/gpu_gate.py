"""The GPU gate inside the task worker: a file lock per GPU that every worker on the machine shares.

The host used to hold its gate around a whole agent call: a `time` call held the GPU alone
while its worker process started, imported torch, built the models, compiled the Triton kernel
and ran torch.compile's warm-up (tens of seconds for the baselines), so the other loops of a
suite waited for work that is not measurement. With param `gpu_gate` (a name such as "gpu-0")
the worker takes the gate itself, only around what touches the GPU:
  shared     the checks' forwards and the timer's warm-ups (JIT, torch.compile, graph capture):
             several workers at once;
  exclusive  the measured repetitions and the profiled range: nothing else runs on the GPU.
An flock on a file in the temp directory, so the gate holds across agents, across strata-cli
processes (a host pool, Slurm elements sharing a node) and dies with a killed worker.
Without the param nothing is locked here (the host's own gate is in force).
"""
from __future__ import annotations

import fcntl
import os
import re
import tempfile
import time
from contextlib import contextmanager
from typing import Iterator


class GpuGate:
    def __init__(self, name: str | None):
        self.path = lock_path(name) if name else None
        self.figures: dict[str, float] = {}
        self._fd: int | None = None
        self._turnstile: int | None = None
        self._holding = False

    @property
    def active(self) -> bool:
        return self.path is not None

    @contextmanager
    def shared(self, phase: str) -> Iterator[None]:
        with self._held(fcntl.LOCK_SH, phase):
            yield

    @contextmanager
    def exclusive(self, phase: str) -> Iterator[None]:
        with self._held(fcntl.LOCK_EX, phase):
            yield

    @contextmanager
    def _held(self, mode: int, phase: str) -> Iterator[None]:
        """Records, per phase, the seconds spent waiting for the gate and holding it."""
        if self.path is None:
            yield
            return
        if self._holding:
            # flock on the same file converts a held lock instead of nesting (and converting drops
            # it first): a writer converting behind the turnstile can deadlock with a reader that
            # waits to convert too, and the inner exit would release the outer hold. Never nest.
            raise RuntimeError(f"GPU gate entered for '{phase}' while already held")
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            self._turnstile = os.open(self.path + ".turn", os.O_RDWR | os.O_CREAT, 0o666)
        asked = time.perf_counter()
        # flock has no writer preference: a stream of checks holding the gate shared would
        # starve a timing. Everyone passes a turnstile first, and a writer keeps it closed while
        # it waits, so checks that arrive after it wait behind it.
        fcntl.flock(self._turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(self._fd, mode)
        finally:
            fcntl.flock(self._turnstile, fcntl.LOCK_UN)
        granted = time.perf_counter()
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            self._add(f"{phase}_wait_s", granted - asked)
            self._add(f"{phase}_held_s", time.perf_counter() - granted)

    def _add(self, key: str, seconds: float) -> None:
        self.figures[key] = round(self.figures.get(key, 0.0) + seconds, 3)

    def report(self) -> dict:
        """What a reply carries: the gate's file and the seconds per phase (empty when off)."""
        return {"path": self.path, **self.figures} if self.path else {}


def lock_path(name: str) -> str:
    """One file per gate name and GPU: workers of one GPU share the gate, those given another
    GPU do not wait for them. Which GPU is the backend's answer (backends/nvidia/device.py:
    its UUID, else the visible-devices variable the host sets per worker group). The name is
    sanitized (it comes from the host's request)."""
    from .backends.nvidia.device import gate_device_name
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{name}-{gate_device_name()}")[:100] or "gpu"
    return os.path.join(tempfile.gettempdir(), f"strata-gpu-gate-{safe}.lock")


def from_params(params: dict) -> GpuGate:
    name = params.get("gpu_gate")
    return GpuGate(name if isinstance(name, str) and name else None)
