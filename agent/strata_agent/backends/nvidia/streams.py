"""The anti-cheat's side-stream watch on an NVIDIA GPU, run in the task worker (verify.py uses it
by default; backends/ascend/npu_checks.py wraps it to watch torch.npu's calls as well).

`StreamMonitor` records use of non-default CUDA streams (`torch.cuda.stream`, `set_stream`,
`Stream(...)`). Without CUDA (CPU runs) the calls are recorded and turned into no-ops, so a task
that would hide its work on a side stream is still caught on a CPU-only machine.
"""
from __future__ import annotations

import contextlib
from typing import Any

import torch


class StreamMonitor:
    """Records calls that move work off the default stream while active."""

    def __init__(self) -> None:
        self.uses: list[str] = []
        self._saved: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> "StreamMonitor":
        cuda = torch.cuda
        has_cuda = cuda.is_available()
        self._patch(cuda, "stream", self._wrap_context("torch.cuda.stream", cuda.stream, has_cuda))
        self._patch(cuda, "set_stream", self._wrap_call("torch.cuda.set_stream", cuda.set_stream,
                                                        has_cuda))
        self._patch(cuda, "Stream", self._wrap_call("torch.cuda.Stream", cuda.Stream, has_cuda,
                                                    fake=_FakeStream))
        return self

    def __exit__(self, *exc: Any) -> None:
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()

    def _patch(self, owner: Any, name: str, replacement: Any) -> None:
        self._saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, replacement)

    def _wrap_context(self, label: str, original: Any, has_cuda: bool):
        def stream(target=None, *args, **kwargs):
            if target is not None and not _is_default_stream(target):
                self.uses.append(label)
            if has_cuda and not isinstance(target, _FakeStream):
                return original(target, *args, **kwargs)
            return contextlib.nullcontext()
        return stream

    def _wrap_call(self, label: str, original: Any, has_cuda: bool, fake: Any = None):
        def call(*args, **kwargs):
            if has_cuda and not any(isinstance(arg, _FakeStream) for arg in args):
                value = original(*args, **kwargs)
                # torch.cuda.default_stream() and current_stream() build Stream objects too:
                # only a stream that is not the default one counts.
                used = value if label == "torch.cuda.Stream" else (args[0] if args else None)
                if not _is_default_stream(used):
                    self.uses.append(label)
                return value
            if label == "torch.cuda.Stream" or not _is_default_stream(args[0] if args else None):
                self.uses.append(label)
            return fake() if fake else None
        return call


class _FakeStream:
    """Stands in for torch.cuda.Stream on a machine without CUDA."""

    cuda_stream = -1

    def synchronize(self) -> None:
        pass

    def wait_stream(self, other: Any) -> None:
        pass

    def wait_event(self, event: Any) -> None:
        pass

    def record_event(self, event: Any = None) -> None:
        return event


def _is_default_stream(stream: Any) -> bool:
    """Compares stream ids without building a Stream: torch.cuda.default_stream() constructs one
    through the (patched) module-level Stream, which would recurse into the monitor."""
    if stream is None or isinstance(stream, _FakeStream):
        return stream is None
    try:
        default_id = torch._C._cuda_getDefaultStream(stream.device_index)[0]
        return stream.stream_id == default_id
    except Exception:
        return False
