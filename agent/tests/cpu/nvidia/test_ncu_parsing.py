"""Parsing real Nsight Compute CSV exports (data/ncu_softmax, from an H200)."""
from __future__ import annotations

from pathlib import Path

from strata_agent.backends.nvidia.ncu_profile import counter_status, parse_details, parse_source

DATA = Path(__file__).resolve().parent / "data" / "ncu_softmax"


def test_details_group_metrics_by_section():
    kernels = parse_details((DATA / "details.csv").read_text())
    assert len(kernels) == 1
    kernel = kernels[0]
    assert kernel["kernel"] == "softmax_kernel"
    assert kernel["grid"] == "(8192, 1, 1)" and kernel["block"] == "(128, 1, 1)"
    speed_of_light = kernel["sections"]["GPU Speed Of Light Throughput"]
    assert speed_of_light["Duration"] == {"value": 16.74, "unit": "us"}
    assert speed_of_light["Elapsed Cycles"] == {"value": 32892, "unit": "cycle"}  # "32,892"
    assert speed_of_light["DRAM Throughput"]["unit"] == "%"
    assert "Occupancy" in kernel["sections"] and "Source Counters" in kernel["sections"]
    assert any(rule["rule"] == "SOLBottleneck" for rule in kernel["rules"])


def test_cuda_sass_source_gives_per_line_costs():
    source = parse_source((DATA / "source-cuda-sass.csv").read_text())
    assert source["kernel"] == "softmax_kernel"
    assert source["instruction_count"] == 192
    assert source["total_stall_samples"] == 1775
    kernel_lines = {line["line"]: line for line in source["lines"]
                    if line["file"].endswith("tasks-smoke/softmax.py")}
    assert kernel_lines[26]["source"] == "numerator = tl.exp(x)"
    assert kernel_lines[26]["instructions_executed"] == 1310720
    assert kernel_lines[28]["stalls"]["drain"] == 52
    hottest = source["lines"][0]  # tl.max's inlined maximum, in triton's standard.py
    assert hottest["file"].endswith("triton/language/standard.py")
    assert (hottest["line"], hottest["stall_samples"]) == (170, 1086)
    top = source["top_instructions"][0]
    assert top["sass"] == "FMNMX R15, R9, R8, !PT" and top["line"] == 170


def test_sass_source_ranks_instructions():
    source = parse_source((DATA / "source-sass.csv").read_text())
    assert source["kernel"] == "softmax_kernel"
    assert source["instruction_count"] == 192
    assert source["top_instructions"][0]["stall_samples"] == 870
    assert source["top_instructions"][0]["stalls"]["long_sb"] == 868


def test_counter_permission_error_is_recognised():
    status = counter_status("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission")
    assert status["status"] == "counters_unavailable"
    assert counter_status("==PROF== Connected to process 12") is None
