"""The msprof reader on hand-written fixtures (msprof_fixtures/README.md) and the torch.npu
event timer on a stand-in device: bookkeeping only, no NPU figure."""
from __future__ import annotations

from pathlib import Path

import pytest

from strata_agent.backends.ascend.msprof import (msprof_op_command, read_msprof_output,
                                                 split_code, unit_of)
from strata_agent.backends.ascend.npu_timing import interleaved_results, time_interleaved

FIXTURES = Path(__file__).resolve().parent / "msprof_fixtures"


def test_op_basic_info_becomes_a_kernel_with_its_block_dim():
    summary = read_msprof_output(FIXTURES / "op")
    assert summary["status"] == "ok" and summary["profiler"] == "msprof"
    [kernel] = summary["kernels"]
    assert kernel["kernel"] == "add_kernel" and kernel["op_type"] == "vector"
    assert kernel["grid"] == "40" and kernel["block"] == "0"
    basic = kernel["sections"]["OpBasicInfo"]
    assert basic["Task Duration(us)"] == {"value": 10.0, "unit": "us"}
    assert basic["Block Dim"]["value"] == 40 and basic["Current Freq"]["unit"] == "MHz"


def test_per_core_tables_are_averaged_and_kept():
    [kernel] = read_msprof_output(FIXTURES / "op")["kernels"]
    pipe = kernel["sections"]["PipeUtilization"]
    assert pipe["aiv_scalar_ratio"]["value"] == pytest.approx((0.125 + 0.3) / 2)
    assert pipe["aiv_scalar_ratio"]["unit"] == "ratio"
    assert pipe["aiv_mte2_time(us)"] == {"value": 4.0, "unit": "us",
                                         "aggregate": "mean of 2 cores"}
    assert "block_id" not in pipe
    assert [core["aiv_total_cycles"] for core in kernel["cores"]["PipeUtilization"]] == [1000, 1200]
    assert kernel["sections"]["MemoryUB"]["ub_read_bw(GB/s)"]["value"] == 150
    assert read_msprof_output(FIXTURES / "op")["sections"] == ["MemoryUB", "OpBasicInfo",
                                                               "PipeUtilization"]


def test_simulator_lines_are_summed_over_cores_costliest_first():
    summary = read_msprof_output(FIXTURES / "simulator")
    assert summary["status"] == "ok" and summary["kernels"] == []
    view = summary["source"]["code_exe"]
    assert view["cost_column"] == "cycles" and view["cores"] == 2
    assert view["total_cycles"] == 2000
    assert [(line["line"], line["cycles"]) for line in view["lines"]] == [(11, 1200), (10, 400),
                                                                          (13, 400)]
    assert view["lines"][0]["file"] == "/work/kernels/vector_add.py"
    assert view["lines"][0]["call_count"] == 2
    assert view["lines"][0]["running_time_us"] == pytest.approx(0.72)


def test_a_folder_without_msprof_output_is_no_report(tmp_path):
    summary = read_msprof_output(tmp_path)
    assert summary["status"] == "no_report" and str(tmp_path) in summary["message"]


def test_units_and_code_columns():
    assert unit_of("aiv_vec_time(us)") == "us" and unit_of("icache_miss_rate") == "ratio"
    assert unit_of("aiv_total_cycles") == "cycle" and unit_of("Op Name") == ""
    assert split_code("/p/k.py:17") == ("/p/k.py", 17)
    assert split_code("??") == ("??", None)


def test_msprof_command_uses_the_runtime_kernel_name():
    name = "k" * 60
    command = msprof_op_command(name, "/tmp/out", ["python3", "task.py"], launch_count=2)
    assert command[:3] == ["msprof", "op", f"--kernel-name={'k' * 49}"]
    assert "--launch-count=2" in command and command[-2:] == ["python3", "task.py"]


class StandInNpu:
    """torch.npu's event API where each event pair reports the next given duration."""

    def __init__(self, durations_ms: list[float]):
        self.durations = list(durations_ms)
        self.synchronize_calls = 0
        self.launches = 0
        outer = self

        class Event:
            def __init__(self, enable_timing: bool):
                assert enable_timing
                self.launches_at_record = None

            def record(self):
                self.launches_at_record = outer.launches

            def elapsed_time(self, end):
                assert end.launches_at_record == self.launches_at_record + 1
                return outer.durations.pop(0)

        self.Event = Event

    def synchronize(self):
        self.synchronize_calls += 1

    def launch(self):
        self.launches += 1


def test_event_timer_brackets_each_launch_and_syncs_per_batch():
    device = StandInNpu([float(value) for value in range(1, 26)])
    samples, errors = time_interleaved({"one": device.launch}, device, repetitions=25, warmup=3,
                                       batch=10)
    assert errors == {} and samples["one"] == [float(value) for value in range(1, 26)]
    assert device.launches == 28            # 3 warm-up launches, then one per repetition
    assert device.synchronize_calls == 4    # after warm-up, then batches of 10, 10, 5


def test_a_timed_candidate_says_the_l2_was_not_flushed():
    pytest.importorskip("torch", reason="timing.summarize (the CUDA timer's statistics) "
                        "imports torch")
    device = StandInNpu([2.0, 1.0, 3.0, 2.0, 2.0])
    result = interleaved_results({"one": device.launch}, device, repetitions=5, warmup=1)["one"]
    assert result["method"] == "npu_events" and result["l2"] == "not_flushed"
    assert result["n"] == 5 and result["median_ms"] == 2.0
