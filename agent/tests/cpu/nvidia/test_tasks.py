"""Task methods on the CPU: Triton's interpreter (TRITON_INTERPRET=1, set by `interpret: true`)
runs the smoke tasks at their small `interpret_shapes`. Needs torch (and numpy < 2.4, whose
int() of 1-element arrays the 3.6 interpreter relies on); skipped with the reason otherwise."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed: task verification tests need it (pip install torch)",
                allow_module_level=True)

from conftest import AgentClient  # noqa: E402
from strata_agent.compile_runner import run_compile  # noqa: E402
from strata_agent.errors import RpcError, StrataError  # noqa: E402
from strata_agent.task_runner import run_task, verify  # noqa: E402

SMOKE = Path(__file__).resolve().parents[4] / "suites" / "tasks-smoke"


def quiet(message, **extra):
    pass


def verify_smoke(name: str, **params) -> dict:
    return verify({"task": str(SMOKE / f"{name}.py"), "interpret": True, **params}, quiet)


def kinds(result: dict) -> set[str]:
    return {reason["kind"] for reason in result["reasons"]}


@pytest.mark.parametrize("name", ["vector_add", "softmax", "matmul_fp16"])
def test_good_task_passes(name):
    result = verify_smoke(name)
    assert result["verdict"] == "pass", result["reasons"]
    assert result["reasons"] == []
    # >= 3 draws for the default and the extra shape, both run orders, fresh seeds
    assert len(result["checks"]) == 6
    assert {check["order"] for check in result["checks"]} == {"reference_first",
                                                              "candidate_first"}
    assert len({check["seed"] for check in result["checks"]}) == 6
    tolerance = 1e-2 if name == "matmul_fp16" else 1e-4
    for check in result["checks"]:
        assert check["launches"] >= 1
        for output in check["outputs"]:
            assert output["tolerance"] == tolerance
            assert 0 <= output["rel_error"] < tolerance


@pytest.mark.parametrize("name, expected, message_part", [
    ("cheat_reference_op", "torch_compute_in_candidate", "aten._softmax"),
    ("cheat_returns_input", "output_aliases_input", "shares storage with an input"),
    ("cheat_cached_output", "output_reused_across_calls", "previous call's output"),
    ("cheat_no_triton", "no_triton_launch", "launched no Triton kernel"),
    ("cheat_side_stream", "non_default_stream", "non-default CUDA stream"),
])
def test_cheat_is_caught(name, expected, message_part):
    result = verify_smoke(name)
    assert result["verdict"] == "fail"
    reason = next(r for r in result["reasons"] if r["kind"] == expected)
    assert reason["severity"] == "fail"
    assert message_part in reason["message"]


def test_cheats_that_compute_correctly_fail_only_for_cheating():
    # Returning the input is numerically right here: only the aliasing check can catch it.
    assert kinds(verify_smoke("cheat_returns_input")) == {"output_aliases_input"}
    assert kinds(verify_smoke("cheat_side_stream")) == {"non_default_stream"}


def test_initial_kernel_keeps_its_glue():
    # The user's starting point runs torch ops around its kernel: not a cheat, its baseline.
    strict = verify_smoke("glue_absmax_scale")
    assert kinds(strict) == {"torch_compute_in_candidate"}
    initial = verify_smoke("glue_absmax_scale", glue="initial")
    assert initial["verdict"] == "pass", initial["reasons"]
    glue = initial["glue_calls"]
    assert glue.get("abs") == 1 and glue.get("max") == 1, glue
    # A candidate may keep those ops, as many calls per forward, and no more.
    assert verify_smoke("glue_absmax_scale", glue=glue)["verdict"] == "pass"
    fewer = {**glue, "abs": 0}
    reason = next(r for r in verify_smoke("glue_absmax_scale", glue=fewer)["reasons"]
                  if r["kind"] == "torch_compute_in_candidate")
    assert reason["ops"] == {"abs": 1} and "aten.abs x1" in reason["message"]


def test_candidate_may_not_add_torch_compute():
    result = verify_smoke("cheat_reference_op", glue={"abs": 1, "max": 1})
    reason = next(r for r in result["reasons"] if r["kind"] == "torch_compute_in_candidate")
    assert list(reason["ops"]) == ["_softmax"]
    # A fresh kernel's verdict reports its glue too: none here.
    assert verify_smoke("vector_add")["glue_calls"] == {}


@pytest.mark.parametrize("glue", ["all", {"abs": -1}, {"abs": True}, ["abs"]])
def test_bad_glue_param_is_refused(glue):
    with pytest.raises(RpcError) as raised:
        verify_smoke("vector_add", glue=glue)
    assert "'glue'" in str(raised.value)


@pytest.mark.parametrize("name, expected", [
    ("wrong_off_by_one", {"wrong_result", "non_finite_output"}),
    ("wrong_reduction_axis", {"wrong_result"}),
    ("wrong_nan_softmax", {"non_finite_output"}),
])
def test_wrong_task_fails(name, expected):
    result = verify_smoke(name)
    assert result["verdict"] == "fail"
    assert kinds(result) & expected, result["reasons"]


def test_off_by_one_names_the_last_element():
    result = verify_smoke("wrong_off_by_one")
    wrong = [r for r in result["reasons"] if r["kind"] == "wrong_result"]
    if wrong:
        assert wrong[0]["message"].endswith("(worst element at flat index 2047)")


def test_launch_capture_gives_the_jit_spec_for_vector_add():
    captured = run_task({"task": str(SMOKE / "vector_add.py"), "interpret": True}, quiet)
    assert captured["launch_count"] == 1
    kernel = captured["kernels"][0]
    assert kernel["kernel"] == "add_kernel"
    assert kernel["source_path"] == str(SMOKE / "vector_add.py")
    assert kernel["line"] == 19  # the `def` line
    assert kernel["grid"] == [5, 1, 1]  # cdiv(4099, 1024)
    assert kernel["spec"] == {
        "kernel": "add_kernel",
        "signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                      "n_elements": "i32", "BLOCK": "constexpr"},
        "constexprs": {"BLOCK": 1024},
        "divisibility_16": ["x_ptr", "y_ptr", "out_ptr"],  # 4099 is not a multiple of 16
        "equal_to_1": [], "options": {"num_warps": 4, "num_stages": 3}, "target": "sm_90"}


def test_launch_capture_folds_unit_strides_and_compiles(tmp_path):
    captured = run_task({"task": str(SMOKE / "matmul_fp16.py"), "interpret": True}, quiet)
    kernel = captured["kernels"][0]
    spec = kernel["spec"]
    assert spec["equal_to_1"] == ["stride_ak", "stride_bn", "stride_cn"]
    assert spec["signature"]["stride_ak"] == "i32"
    assert spec["divisibility_16"] == ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am",
                                       "stride_bk", "stride_cm"]
    assert spec["constexprs"] == {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32}
    assert spec["options"] == {"num_warps": 8, "num_stages": 3}
    assert kernel["grid"] == [2, 2, 1]
    compiled = run_compile({"source_path": kernel["source_path"], "spec": spec,
                            "work_dir": str(tmp_path), "pass_dumps": False}, quiet)
    assert compiled["metadata"]["num_warps"] == 8
    assert "ptx" in compiled["artifacts"]


def test_crashing_candidate_is_its_own_failure():
    result = verify_smoke("crash_out_of_bounds")
    assert result["verdict"] == "fail"
    assert kinds(result) & {"worker_killed", "candidate_raised"}, result["reasons"]


def test_hanging_candidate_is_killed_at_the_timeout():
    result = verify_smoke("hang_forever", timeout_s=8)
    assert kinds(result) == {"timeout"}
    with pytest.raises(StrataError) as raised:
        run_task({"task": str(SMOKE / "hang_forever.py"), "interpret": True, "timeout_s": 8},
                 quiet)
    assert raised.value.code == -32002


def test_agent_keeps_serving_after_a_crash(tmp_path):
    client = AgentClient(tmp_path)
    try:
        reply, progress = client.request("verify", {"task": str(SMOKE / "crash_out_of_bounds.py"),
                                                    "interpret": True})
        assert reply["result"]["verdict"] == "fail"
        assert any("worker started" in p["message"] for p in progress)
        reply, _ = client.request("verify", {"task": str(SMOKE / "vector_add.py"),
                                             "interpret": True})
        assert reply["result"]["verdict"] == "pass"
        reply, _ = client.request("run_task", {"task": str(tmp_path / "missing.py")})
        assert reply["error"]["code"] == -32003
        assert reply["error"]["data"]["kind"] == "missing_file"
    finally:
        client.close()


def test_stream_monitor_does_not_count_the_default_stream(monkeypatch):
    """torch.cuda.default_stream() builds its Stream through the module-level (patched) name;
    on an H200 that once recursed and flagged every good task. Simulated CUDA here."""
    import torch
    from strata_agent.backends.nvidia.streams import StreamMonitor

    class CudaStream:
        def __init__(self, stream_id=0, device_index=0, device_type=1, priority=0):
            self.stream_id = stream_id
            self.device_index = device_index

    def default_stream(device=None):
        return torch.cuda.Stream(stream_id=0, device_index=0)  # as torch.cuda does

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "Stream", CudaStream)
    monkeypatch.setattr(torch.cuda, "default_stream", default_stream)
    monkeypatch.setattr(torch._C, "_cuda_getDefaultStream", lambda index: (0, index, 1),
                        raising=False)
    with StreamMonitor() as monitor:
        torch.cuda.default_stream()
        assert monitor.uses == []
        torch.cuda.Stream(stream_id=35)
    assert monitor.uses == ["torch.cuda.Stream"]


def test_count_formulas_and_speed_of_light():
    from strata_agent.roofline import speed_of_light
    from strata_agent.task_loader import TaskError, evaluate_count
    names = {"M": 64, "N": 32, "shapes": [[64, 8], [8, 32]]}
    assert evaluate_count("2 * M * N * shapes[0][1]", names) == 2 * 64 * 32 * 8
    assert evaluate_count("prod(shapes[1]) * 2", names) == 512
    with pytest.raises(TaskError, match="unknown name 'K'"):
        evaluate_count("K * 2", names)
    with pytest.raises(TaskError, match="unsupported syntax"):
        evaluate_count("__import__('os')", names)
    ceilings = {"copy_bandwidth_gbs": 4000.0, "matmul_tflops": {"fp16": 800.0, "fp32": 50.0}}
    # 4 GB at 4 TB/s is a 1 ms floor: measured 1.25 ms is 80% of the speed of light.
    memory = speed_of_light({"bytes": 4e9, "flops": 1e9}, 1.25, ceilings, "fp32")
    assert memory["bound"] == "memory" and abs(memory["sol_pct"] - 80.0) < 1e-9
    compute = speed_of_light({"bytes": 1e8, "flops": 8e12}, 20.0, ceilings, "fp16")
    assert compute["bound"] == "compute" and abs(compute["sol_pct"] - 50.0) < 1e-9
    too_fast = speed_of_light({"bytes": 4e9, "flops": 0}, 0.5, ceilings, "fp32")
    assert "implausible" in too_fast
