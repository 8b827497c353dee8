"""Every bad input and compiler failure comes back as a structured error naming file, kernel
and line, and the agent keeps serving afterwards."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from conftest import KERNELS, SAMPLES, compile_params, load_spec

COMPILE_ERROR, TIMEOUT, BAD_INPUT, WORKER_FAILED = -32001, -32002, -32003, -32004
ADD_SOURCE = str(SAMPLES / "vector_add.py")
# Kernels only the NVIDIA backend's tools reject (ptxas); the others are in tests/cpu/kernels.
NVIDIA_KERNELS = Path(__file__).resolve().parent / "kernels"


def compile_error(agent, params: dict, **request) -> dict:
    reply, _ = agent.request("compile", params, **request)
    assert "error" in reply, "expected an error, got a result"
    error = reply["error"]
    assert set(error["data"]) >= {"kind", "message", "file", "line", "kernel"}
    assert error["data"]["message"] == error["message"]
    return error


def add_params(tmp_path, mutate=None, **overrides) -> dict:
    params = compile_params("vector_add", "aligned", tmp_path, **overrides)
    if mutate:
        mutate(params["spec"])
    return params


def test_missing_file(agent, tmp_path):
    error = compile_error(agent, add_params(tmp_path, source_path=str(tmp_path / "nope.py")))
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "missing_file"
    assert error["data"]["file"] == str(tmp_path / "nope.py")
    assert error["data"]["kernel"] == "add_kernel"


def test_unknown_kernel_lists_the_available_ones(agent, tmp_path):
    params = add_params(tmp_path, kernel="mul_kernel",
                        mutate=lambda spec: spec.update(kernel="mul_kernel"))
    error = compile_error(agent, params)
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "unknown_kernel"
    assert error["data"]["kernel"] == "mul_kernel"
    assert error["data"]["file"] == ADD_SOURCE
    assert error["data"]["available"] == ["add_kernel"]


def test_missing_parameter_in_signature(agent, tmp_path):
    error = compile_error(agent, add_params(
        tmp_path, mutate=lambda spec: (spec["signature"].pop("n_elements"),
                                       spec["divisibility_16"].remove("n_elements"))))
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "signature_mismatch"
    assert "missing from the spec signature: n_elements" in error["message"]
    assert error["data"]["line"] == 13  # the `def add_kernel(` line
    assert error["data"]["kernel"] == "add_kernel"


def test_extra_parameter_in_signature(agent, tmp_path):
    error = compile_error(agent, add_params(
        tmp_path, mutate=lambda spec: spec["signature"].update(z_ptr="*fp32")))
    assert error["data"]["kind"] == "signature_mismatch"
    assert "not parameters of the kernel: z_ptr" in error["message"]


def test_constexpr_value_for_a_runtime_parameter(agent, tmp_path):
    def make_n_constexpr(spec):
        spec["signature"]["n_elements"] = "constexpr"
        spec["constexprs"]["n_elements"] = 4096
        spec["divisibility_16"].remove("n_elements")
    error = compile_error(agent, add_params(tmp_path, mutate=make_n_constexpr))
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "signature_mismatch"
    assert "'n_elements' is given a constexpr value" in error["message"]


def test_constexprs_entry_for_a_typed_parameter_is_a_bad_spec(agent, tmp_path):
    error = compile_error(agent, add_params(
        tmp_path, mutate=lambda spec: spec["constexprs"].update(n_elements=7)))
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "bad_spec"
    assert "n_elements" in error["message"]


def test_unsupported_target(agent, tmp_path):
    error = compile_error(agent, add_params(tmp_path, target="sm_75"))
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "bad_target"


def kernel_params(file_name: str, kernel: str, signature: dict, constexprs=None, folder=KERNELS,
                  **spec) -> dict:
    return {"source_path": str(folder / file_name),
            "spec": {"kernel": kernel, "signature": signature, "constexprs": constexprs or {},
                     **spec}}


def test_syntax_error(agent):
    error = compile_error(agent, kernel_params("syntax_error.py", "broken_kernel",
                                               {"x_ptr": "*i32", "BLOCK": "constexpr"},
                                               {"BLOCK": 64}))
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "syntax_error"
    assert error["data"]["file"] == str(KERNELS / "syntax_error.py")
    assert error["data"]["line"] == 7
    assert error["data"]["kernel"] == "broken_kernel"


def test_file_without_triton_kernels(agent):
    error = compile_error(agent, kernel_params("not_triton.py", "add", {"a": "i32", "b": "i32"}))
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "not_triton"


def test_module_that_raises_on_import(agent):
    error = compile_error(agent, kernel_params("import_error.py", "scaled_kernel",
                                               {"x_ptr": "*fp32"}))
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "import_error"
    assert "ZeroDivisionError" in error["message"]
    assert error["data"]["line"] == 4


def test_frontend_error_points_at_the_kernel_line(agent):
    error = compile_error(agent, kernel_params("frontend_error.py", "bad_arange_kernel",
                                               {"out_ptr": "*i32", "n": "i32"}))
    assert error["code"] == COMPILE_ERROR
    assert error["data"]["kind"] == "frontend_error"
    assert error["data"]["line"] == 8  # offsets = tl.arange(0, n)
    assert error["data"]["column"] == 15
    assert "arange's arguments must be of type tl.constexpr" in error["message"]


def test_error_inside_a_helper_carries_the_chained_cause(agent):
    # Triton raises the call site's CompilationError (location and excerpt only) `from` the
    # helper's own; the message must end with what actually failed, not only "at 4:10:".
    params = kernel_params("frontend_error.py", "helper_error_kernel",
                           {"x_ptr": "*fp16", "out_ptr": "*fp16", "BLOCK": "constexpr"})
    params["spec"]["constexprs"] = {"BLOCK": 128}
    error = compile_error(agent, params)
    assert error["data"]["kind"] == "frontend_error"
    assert "Caused by " in error["message"]
    assert "unary invert" in error["message"].split("Caused by ")[-1]


def test_dtype_constexpr_written_as_tl_name_compiles(agent):
    # A launch passes OUT_DTYPE=tl.bfloat16; the spec writes it "tl.bfloat16" (a bare "bf16"
    # stays a string, which Triton cannot use as a dtype).
    params = kernel_params("frontend_error.py", "cast_kernel",
                           {"x_ptr": "*fp32", "out_ptr": "*bf16", "OUT_DTYPE": "constexpr", "BLOCK": "constexpr"})
    params["spec"]["constexprs"] = {"OUT_DTYPE": "tl.bfloat16", "BLOCK": 128}
    reply, _ = agent.request("compile", params)
    assert "result" in reply, reply.get("error")


def test_pass_failure_names_the_pass_and_the_line(agent):
    spec = load_spec("matmul", "default")
    spec["options"]["num_warps"] = 4
    params = {"source_path": str(KERNELS / "ws_matmul.py"), "spec": spec}
    error = compile_error(agent, params)
    assert error["code"] == COMPILE_ERROR
    assert error["data"]["kind"] == "pass_failed"
    assert "PassManager::run failed" in error["message"]
    assert error["data"]["file"] == str(KERNELS / "ws_matmul.py")
    assert error["data"]["line"] == 15  # the kernel's def line: the module's location
    assert error["data"]["failed_pass"] == {"pass": "NVGPUWarpSpecialization",
                                            "argument": "nvgpu-warp-specialization",
                                            "stage": "ttgir"}
    assert any(d["severity"] == "error" for d in error["data"]["diagnostics"])
    kept = sorted(path.name for path in Path(error["data"]["work_dir"], "passes").iterdir())
    assert kept[-1].endswith("-nvgpu-warp-specialization.mlir")


def test_ptxas_error_maps_the_ptx_line_back_to_python(agent):
    error = compile_error(agent, kernel_params("ptxas_error.py", "bad_asm_kernel",
                                               {"x_ptr": "*i32", "BLOCK": "constexpr"},
                                               {"BLOCK": 128}, folder=NVIDIA_KERNELS))
    assert error["code"] == COMPILE_ERROR
    assert error["data"]["kind"] == "ptxas_error"
    assert "Unknown modifier '.instr'" in error["message"]
    assert error["data"]["line"] == 10  # y = tl.inline_asm_elementwise(...)
    assert isinstance(error["data"]["ptx_line"], int)


def test_timeout_is_reported_as_timeout(agent, tmp_path):
    params = compile_params("matmul", "big_spill", tmp_path, timeout_s=0.5)
    error = compile_error(agent, params)
    assert error["code"] == TIMEOUT
    assert error["data"]["kind"] == "timeout"
    assert error["data"]["timeout_s"] == 0.5
    assert error["data"]["kernel"] == "matmul_kernel"


def test_killed_worker_is_reported(agent, tmp_path):
    def kill_worker(progress):
        if "worker_pid" in progress:
            os.kill(progress["worker_pid"], signal.SIGKILL)
    error = compile_error(agent, compile_params("matmul", "default", tmp_path),
                          on_progress=kill_worker)
    assert error["code"] == WORKER_FAILED
    assert error["data"]["kind"] == "worker_killed"
    assert error["data"]["signal"] == "SIGKILL"


def test_agent_keeps_serving_after_failures(agent, tmp_path):
    compile_error(agent, kernel_params("frontend_error.py", "bad_arange_kernel",
                                       {"out_ptr": "*i32", "n": "i32"}))
    reply, _ = agent.request("compile", compile_params("vector_add", "aligned", tmp_path))
    assert reply["result"]["kernel"] == "add_kernel"
    reply, _ = agent.request("info")
    assert reply["result"]["protocol"] == 1


@pytest.mark.parametrize("bad_spec, words", [
    ("not an object", "spec must be a JSON object"),
    ({"kernel": "add_kernel"}, "spec.signature"),
    ({"kernel": "add_kernel", "signature": {"x_ptr": "*floaty"}}, "unknown type"),
])
def test_malformed_specs(agent, bad_spec, words):
    error = compile_error(agent, {"source_path": ADD_SOURCE, "spec": bad_spec})
    assert error["code"] == BAD_INPUT
    assert words in error["message"]


def test_options_triton_refuses(agent, tmp_path):
    params = add_params(tmp_path, mutate=lambda spec: spec["options"].update(num_warps=3))
    error = compile_error(agent, params)
    assert error["code"] == BAD_INPUT
    assert error["data"]["kind"] == "rejected_by_triton"
    assert "num_warps must be a power of 2" in error["message"]
