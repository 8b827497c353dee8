"""`run_task` and `verify` with an Ascend target (the optimization loop's checks).

No NPU here. What runs for real: the agent's routing by target, the Ascend task worker under
triton-ascend's Python, its launch capture of triton-ascend 3.2's JIT (capture-only) and
interpreter, strata_agent.verify's checks with the device hooks rebound (float64 reference and
comparison on the CPU, Ascend tolerances), the clear error on a host without an NPU, and a worker
that dies reported as a `fail` verdict while the agent keeps serving. A launch on an NPU was
never seen.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import torch

from conftest import AgentClient
from strata_agent.backends import local_triton_flavour, run_compile
from strata_agent.backends.ascend import npu_host
from strata_agent.backends.ascend.npu_checks import (REDUCED_FP32_TOLERANCE, cpu_device,
                                                      float64_on_cpu, tolerance_for,
                                                      verify_bound_to)

from ascend_helpers import requires_triton_ascend

TASKS = Path(__file__).resolve().parent / "tasks"
TARGET = "ascend910_95"
requires_ascend_here = pytest.mark.skipif(local_triton_flavour() != "ascend",
                                          reason="in-process capture needs triton-ascend as "
                                                 "this Python's triton (.venv-ascend)")


@pytest.fixture
def agent(monkeypatch, tmp_path):
    """This host as it is: no CANN variable, so never an Ascend host."""
    for variable in npu_host.CANN_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    client = AgentClient(tmp_path)
    yield client
    client.close()


def task(name: str, **params) -> dict:
    return {"task": str(TASKS / f"{name}.py"), "target": TARGET, **params}


# --- tolerance and reference logic, on CPU tensors ----------------------------------------------
def test_tolerance_per_dtype():
    assert tolerance_for(torch.float32, {}) == 1e-4
    assert tolerance_for(torch.float16, {}) == tolerance_for(torch.bfloat16, {}) == 1e-2
    assert tolerance_for(torch.float64, {}) == 1e-7
    assert tolerance_for(torch.int32, {}) == 0.0 and tolerance_for(torch.int8, {}) == 0.0
    assert tolerance_for(torch.float32, {"precision": "hf32"}) == REDUCED_FP32_TOLERANCE
    assert tolerance_for(torch.float16, {"precision": "hf32"}) == 1e-2
    assert tolerance_for(torch.float32, {"tolerance": 0.25}) == 0.25


def test_float64_reference_is_a_cpu_copy():
    model = torch.nn.Linear(4, 3).half()
    exact = float64_on_cpu(model)
    assert exact is not model and exact.weight.dtype == torch.float64
    assert exact.weight.device.type == "cpu" and model.weight.dtype == torch.float16
    assert float64_on_cpu(len) is len   # a plain function is its own reference


def test_verify_hooks_compare_on_cpu_and_are_put_back():
    from strata_agent import verify
    from strata_agent.backends.ascend.npu_checks import _HOOKS
    before = {name: getattr(verify, name) for name in _HOOKS}
    with verify_bound_to(cpu_device(), TARGET) as bound:
        assert bound.task_device() == "cpu" and bound.tolerance_for is tolerance_for
        out = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
        exact = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
        [good] = bound.compare_outputs(out, {"native": out, "float64": exact}, {})
        assert good["tolerance"] == 1e-2 and good["rel_error"] == 0.0
        [bad] = bound.compare_outputs(out * 1.1, {"native": out, "float64": exact}, {})
        assert bad["problem"] == "wrong_result"
        # No float64 reference (a reference that cannot run in float64): the native one judges.
        [native] = bound.compare_outputs(out, {"native": out, "float64": None}, {})
        assert "problem" not in native
        upcast = bound.upcast([out, torch.tensor([1], dtype=torch.int32)])
        assert upcast[0].dtype == torch.float64 and upcast[1].dtype == torch.int32
    assert all(getattr(verify, name) is hook for name, hook in before.items())


@requires_ascend_here
def test_capture_describes_a_triton_ascend_launch():
    """Capture-only under triton-ascend 3.2's JIT: the spec an Ascend compile rebuilds."""
    from strata_agent.backends.ascend.npu_capture import AscendLaunchCapture
    from strata_agent.task_loader import load_task
    loaded = load_task(str(TASKS / "add_good.py"))
    x = torch.randn(1000, dtype=torch.float16)
    with AscendLaunchCapture(TARGET, launch=False) as capture:
        loaded.module.ModelNew()(x, x.clone())
    [kernel] = capture.kernels()
    assert kernel["grid"] == [4, 1, 1] and kernel["mode"] == "captured"
    spec = kernel["spec"]
    assert spec["signature"] == {"x_ptr": "*fp16", "y_ptr": "*fp16", "out_ptr": "*fp16",
                                 "n": "i32", "BLOCK": "constexpr"}
    assert spec["constexprs"] == {"BLOCK": 256} and spec["target"] == TARGET
    assert "n" not in spec["divisibility_16"] and "x_ptr" in spec["divisibility_16"]


# --- through the agent -------------------------------------------------------------------------
@requires_triton_ascend
def test_run_task_capture_only_gives_specs_an_ascend_compile_rebuilds(agent, tmp_path):
    reply, _ = agent.request("run_task", task("add_good", capture_only=True), timeout=300)
    result = reply["result"]
    assert result["backend"] == "ascend" and result["target"] == TARGET
    assert result["device"] == "cpu" and result["launch_count"] == 1
    [kernel] = result["kernels"]
    assert kernel["kernel"] == "add_kernel" and kernel["grid"] == [4, 1, 1]
    assert kernel["spec"]["target"] == TARGET
    assert result["outputs"] == [{"shape": [1000], "dtype": "float16", "tolerance": 0.01}]
    compiled = run_compile({"source_path": kernel["source_path"], "spec": kernel["spec"],
                            "work_dir": str(tmp_path / "compile")}, lambda *_, **__: None)
    assert compiled["backend"] == "ascend" and "ttadapter" in compiled["artifacts"]


@requires_triton_ascend
def test_verify_interpreted_passes_a_correct_kernel(agent):
    reply, _ = agent.request("verify", task("add_good", interpret=True), timeout=300)
    result = reply["result"]
    assert result["verdict"] == "pass", result["reasons"]
    assert result["backend"] == "ascend" and result["device"] == "cpu"
    assert len(result["shapes"]) == 2 and len(result["checks"]) == 6
    output = result["checks"][0]["outputs"][0]
    assert output["tolerance"] == 1e-2 and output["rel_error"] < 1e-3
    assert result["kernels"][0]["mode"] == "interpreter"


@requires_triton_ascend
def test_verify_interpreted_uses_the_hf32_tolerance(agent):
    reply, _ = agent.request("verify", task("sum_fp32_hf32", interpret=True), timeout=300)
    result = reply["result"]
    assert result["verdict"] == "pass", result["reasons"]
    assert result["checks"][0]["outputs"][0]["tolerance"] == REDUCED_FP32_TOLERANCE


@requires_triton_ascend
def test_verify_interpreted_fails_a_short_grid(agent):
    reply, _ = agent.request("verify", task("add_short_grid", interpret=True), timeout=300)
    result = reply["result"]
    assert result["verdict"] == "fail"
    assert {reason["kind"] for reason in result["reasons"]} & {"non_finite_output",
                                                               "wrong_result"}


@requires_triton_ascend
def test_verify_interpreted_catches_torch_compute(agent):
    reply, _ = agent.request("verify", task("add_torch", interpret=True), timeout=300)
    kinds = {reason["kind"] for reason in reply["result"]["reasons"]}
    assert {"no_triton_launch", "torch_compute_in_candidate"} <= kinds


@requires_triton_ascend
def test_a_worker_that_aborts_is_a_fail_verdict_and_the_agent_serves_on(agent):
    reply, _ = agent.request("verify", task("add_abort", interpret=True), timeout=300)
    result = reply["result"]
    assert result["verdict"] == "fail" and result["backend"] == "ascend"
    [reason] = result["reasons"]
    assert reason["kind"] == "worker_killed" and reason["signal"] == "SIGABRT"
    info, _ = agent.request("info")
    assert "result" in info
    reply, _ = agent.request("run_task", task("add_abort", interpret=True), timeout=300)
    assert reply["error"]["data"]["kind"] == "worker_killed"


def test_run_task_without_an_npu_is_a_clear_error(agent):
    reply, _ = agent.request("run_task", task("add_good"))
    error = reply["error"]
    assert error["code"] == -32004 and error["data"]["kind"] == "npu_unavailable"
    assert error["data"]["reason"] in ("no_cann", "no_triton_ascend")
    assert "cannot run the task on an Ascend NPU" in error["message"]


def test_verify_without_an_npu_is_an_error_not_a_verdict(agent):
    reply, _ = agent.request("verify", task("add_good", glue="initial"))
    error = reply["error"]
    assert error["data"]["kind"] == "npu_unavailable" and error["data"]["target"] == TARGET
    assert "cannot verify the task on an Ascend NPU" in error["message"]


def test_verify_checks_glue_before_anything(agent):
    reply, _ = agent.request("verify", task("add_good", glue=["add"]))
    assert reply["error"]["code"] == -32602


@requires_triton_ascend
def test_verify_on_a_stand_in_host_without_torch_npu(monkeypatch, tmp_path):
    """The host checks pass (stand-in CANN and npu-smi); the worker cannot import torch_npu and
    says so: an error naming the reason, not a fail verdict."""
    cann = tmp_path / "cann"
    cann.mkdir()
    monkeypatch.setenv("ASCEND_HOME_PATH", str(cann))
    fake_host = Path(__file__).resolve().parent / "fake_ascend_host"
    monkeypatch.setenv("PATH", f"{fake_host}:{__import__('os').environ['PATH']}")
    client = AgentClient(tmp_path)
    try:
        reply, _ = client.request("verify", task("add_good"), timeout=300)
    finally:
        client.close()
    error = reply["error"]
    assert error["data"]["kind"] == "npu_unavailable"
    assert error["data"]["reason"] == "no_torch_npu"


def test_npu_side_streams_are_recorded(monkeypatch):
    """A stand-in torch.npu: creating a stream or entering a non-default one is a use; the
    default stream is not; the calls still run and are put back afterwards."""
    from types import SimpleNamespace
    from strata_agent.backends.ascend.npu_checks import NpuStreamMonitor
    default = object()
    ran = []
    npu = SimpleNamespace(default_stream=lambda: default,
                          Stream=lambda: ran.append("Stream") or object(),
                          stream=lambda s: ran.append("stream"),
                          set_stream=lambda s: ran.append("set_stream"))
    monkeypatch.setattr(torch, "npu", npu, raising=False)
    originals = (npu.Stream, npu.stream, npu.set_stream)
    with NpuStreamMonitor() as monitor:
        torch.npu.stream(default)
        torch.npu.set_stream(default)
        assert monitor.uses == []
        side = torch.npu.Stream()
        torch.npu.stream(side)
    assert monitor.uses == ["torch.npu.Stream", "torch.npu.stream"]
    assert ran == ["stream", "set_stream", "Stream", "stream"]
    assert (npu.Stream, npu.stream, npu.set_stream) == originals


@requires_triton_ascend
def test_verify_takes_the_gate_per_piece_of_work(agent):
    """With `gpu_gate` the Ascend verify reports the gate's shared holds, as the NVIDIA one."""
    reply, _ = agent.request("verify", task("add_good", interpret=True,
                                            gpu_gate="ascend-test"), timeout=300)
    result = reply["result"]
    assert result["verdict"] == "pass"
    assert result["gpu_gate"]["checks_held_s"] > 0 and "checks_wait_s" in result["gpu_gate"]
