"""The Ascend `time` as the optimization loop calls it: candidates timed in turns, `compare_with`
tasks labelled `triton:<task name>` as in the NVIDIA reply, a candidate that raises reported with
its error while the others are timed.

No NPU here: a stand-in device whose events report given durations drives the timer, and the
worker's `time` runs in-process on the CPU with the tasks' kernels under Triton's interpreter and
`npu_device` / `versions` replaced. It checks the bookkeeping and the reply's shape, never an
NPU figure.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from strata_agent.backends.ascend.npu_timing import interleaved_results, time_interleaved

TASKS = Path(__file__).resolve().parent / "tasks"


class CountingNpu:
    """torch.npu's event API: every event pair reports the next duration of `durations`, and
    the launches of each candidate are counted."""

    def __init__(self, durations=None):
        self.durations = durations if durations is not None else itertools.repeat(1.0)
        self.synchronize_calls = 0
        outer = self

        class Event:
            def __init__(self, enable_timing: bool):
                assert enable_timing

            def record(self):
                pass

            def elapsed_time(self, end):
                return next(outer.durations)

        self.Event = Event

    def synchronize(self):
        self.synchronize_calls += 1

    def current_device(self):
        return 0

    def get_device_name(self, index):
        return "stand-in NPU"


def test_candidates_are_timed_in_turns_and_a_failing_one_is_dropped():
    calls = []

    def broken():
        calls.append("broken")
        if calls.count("broken") > 4:   # survives the warm-up, fails in the first batch
            raise RuntimeError("device error")

    launches = {"a": lambda: calls.append("a"), "b": lambda: calls.append("b"), "broken": broken}
    device = CountingNpu(iter(float(value) for value in range(1, 100)))
    samples, errors = time_interleaved(launches, device, repetitions=15, warmup=2, batch=10)
    assert errors == {"broken": "RuntimeError: device error"}
    assert sorted(samples) == ["a", "b"]
    # Round 1: a x10, b x10 (broken raised on its 3rd launch of the round); round 2: a x5, b x5.
    assert samples["a"] == [float(v) for v in range(1, 11)] + [float(v) for v in range(21, 26)]
    assert samples["b"] == [float(v) for v in range(11, 21)] + [float(v) for v in range(26, 31)]
    assert calls[:6] == ["a", "a", "b", "b", "broken", "broken"]   # warm-ups, each alone
    assert device.synchronize_calls == 3 + 2   # after each warm-up, then once per round


def test_interleaved_results_have_the_timers_candidates_shape():
    pytest.importorskip("torch", reason="timing.summarize imports torch")
    device = CountingNpu(itertools.cycle([2.0, 1.0, 3.0]))
    results = interleaved_results({"triton": lambda: None, "eager": lambda: None}, device,
                                  repetitions=6, warmup=1)
    assert set(results) == {"triton", "eager"}
    assert results["triton"]["n"] == 6 and results["triton"]["l2"] == "not_flushed"
    assert results["triton"]["median_ms"] == 2.0 and results["eager"]["error"] is None


@pytest.fixture
def worker_on_cpu(monkeypatch):
    """npu_task_worker with the NPU replaced by the CPU and a stand-in event device."""
    pytest.importorskip("torch")
    monkeypatch.setenv("TRITON_INTERPRET", "1")   # the tasks' kernels run on the CPU
    from strata_agent.backends.ascend import npu_task_worker as worker
    device = CountingNpu()
    monkeypatch.setattr(worker, "NPU", "cpu")
    monkeypatch.setattr(worker, "npu_device", lambda: device)
    monkeypatch.setattr(worker, "versions", lambda: {"stand_in": True})
    monkeypatch.setattr(worker, "progress", lambda *_, **__: None)
    return worker


def test_time_with_compare_with_labels_each_task(worker_on_cpu, tmp_path):
    other = tmp_path / "c2.py"
    other.write_text((TASKS / "add_good.py").read_text())
    result = worker_on_cpu.time_task([str(TASKS / "add_good.py"), str(other)],
                                     {"target": "ascend910_95", "min_reps": 4,
                                      "candidates": ["triton", "eager"]})
    assert set(result["candidates"]) == {"triton:add_good", "triton:c2", "eager"}
    for name, candidate in result["candidates"].items():
        assert candidate["error"] is None and candidate["n"] == 4, name
    assert result["backend"] == "ascend" and result["stop_reason"] == "repetitions"
    assert result["tasks"] == [str(TASKS / "add_good.py"), str(other)]
    assert result["comparisons"]["speedup_vs_eager"] == 1.0
    assert result["device"]["name"] == "stand-in NPU"
    assert result["roofline"]["counts"]["bytes"] > 0


def test_time_alone_is_triton_and_a_raising_candidate_is_an_error(worker_on_cpu, tmp_path):
    raising = tmp_path / "raising.py"
    raising.write_text((TASKS / "add_good.py").read_text().replace(
        "        out = torch.empty_like(x)\n",
        "        raise ValueError('no kernel today')\n"))
    result = worker_on_cpu.time_task([str(raising)], {"min_reps": 3})
    assert set(result["candidates"]) == {"triton", "eager"}
    assert result["candidates"]["triton"] == {"method": "npu_events", "n": 0,
                                              "error": "ValueError: no kernel today"}
    assert result["candidates"]["eager"]["n"] == 3 and result["comparisons"] == {}
