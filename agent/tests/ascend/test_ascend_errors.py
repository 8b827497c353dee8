"""A crashing or failing compiler tool, a missing triton-ascend and kernel errors are structured
errors; the agent answers them and keeps serving."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from ascend_helpers import (ASCEND_KERNELS, aborting_tool, compile_sample, failing_tool,
                            requires_triton_ascend, sample_params, sleeping_tool)
from conftest import AgentClient
from strata_agent.backends.ascend.environment import ADAPTER_OPT_VARIABLE, ASCEND_PYTHON_VARIABLE
from strata_agent.errors import BAD_INPUT, COMPILE_ERROR, TIMEOUT, WORKER_FAILED, StrataError


def compile_error(name: str, work_dir: Path, **overrides) -> StrataError:
    with pytest.raises(StrataError) as caught:
        compile_sample(name, work_dir, **overrides)
    return caught.value


@requires_triton_ascend
def test_an_aborting_adapter_is_reported_as_a_crashed_compiler(tmp_path, monkeypatch):
    monkeypatch.setenv(ADAPTER_OPT_VARIABLE, str(aborting_tool(tmp_path)))
    error = compile_error("matmul", tmp_path / "work")
    assert error.code == COMPILE_ERROR
    data = error.data
    assert data["kind"] == "compiler_crashed"
    assert data["signal"] == "SIGABRT" and data["exit_code"] == -6
    assert data["stage"] == "ttadapter" and data["tool"] == "triton-adapter-opt"
    assert "malloc(): corrupted top size" in data["stderr_tail"]
    assert data["known_issue"] and "intermittent" in data["known_issue"]
    assert data["file"] == str(ASCEND_KERNELS / "matmul.py") and data["kernel"] == "matmul_kernel"
    assert error.message == "triton-adapter-opt was killed by SIGABRT in stage ttadapter"
    # What ran before the crash stays: the TTIR and its pass dumps.
    work_dir = Path(data["work_dir"])
    assert (work_dir / "matmul_kernel.ttir").is_file()
    assert not (work_dir / "matmul_kernel.ttadapter").exists()
    assert any(path.name.endswith("-inline.mlir") for path in (work_dir / "passes").iterdir())
    assert [stage["stage"] for stage in data["stages"]] == ["ttir"]


@requires_triton_ascend
def test_an_unknown_abort_has_no_known_issue(tmp_path, monkeypatch):
    monkeypatch.setenv(ADAPTER_OPT_VARIABLE, str(aborting_tool(tmp_path, "Assertion failed")))
    error = compile_error("vector_add", tmp_path / "work", pass_dumps=False)
    assert error.data["kind"] == "compiler_crashed" and error.data["known_issue"] is None


@requires_triton_ascend
def test_an_adapter_that_exits_with_an_error_is_a_tool_failure(tmp_path, monkeypatch):
    # With line info on, the adapter's diagnostics name the kernel's own lines.
    source = ASCEND_KERNELS / "vector_add.py"
    tool = failing_tool(tmp_path, f"{source}:12:9: error: tt.load op unsupported here")
    monkeypatch.setenv(ADAPTER_OPT_VARIABLE, str(tool))
    error = compile_error("vector_add", tmp_path / "work")
    assert error.data["kind"] == "tool_failed" and error.data["exit_code"] == 1
    assert error.message == ("triton-adapter-opt failed in stage ttadapter: "
                             f"{source}:12:9: error: tt.load op unsupported here")
    assert (error.data["file"], error.data["line"], error.data["column"]) == (str(source), 12, 9)
    assert "about to fail" in error.data["stderr_tail"]


@requires_triton_ascend
def test_a_hanging_adapter_times_out_and_is_killed(tmp_path, monkeypatch):
    monkeypatch.setenv(ADAPTER_OPT_VARIABLE, str(sleeping_tool(tmp_path)))
    started = time.monotonic()
    error = compile_error("vector_add", tmp_path / "work", timeout_s=3, pass_dumps=False)
    assert error.code == TIMEOUT and error.data["last_stage"] == "ttadapter"
    assert time.monotonic() - started < 30
    assert not sleeping_processes(tmp_path)


def sleeping_processes(folder: Path) -> list[int]:
    """Processes still running the sleeping stand-in tool (by its path in their command line)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            command = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if str(folder / "sleeping-adapter-opt") in command:
            found.append(int(entry.name))
    return found


@requires_triton_ascend
def test_a_worker_killed_during_import_is_reported(tmp_path):
    kernel = tmp_path / "suicidal.py"
    kernel.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    spec = {"kernel": "k", "signature": {"x_ptr": "*fp32"}, "target": "ascend910_95"}
    error = compile_error("vector_add", tmp_path / "work", source_path=str(kernel), spec=spec,
                          spec_path=None)
    assert error.code == WORKER_FAILED and error.data["kind"] == "worker_killed"
    assert error.data["signal"] == "SIGKILL" and error.data["stage"] is None


@requires_triton_ascend
def test_the_agent_keeps_serving_after_a_compiler_crash(tmp_path, monkeypatch):
    monkeypatch.setenv(ADAPTER_OPT_VARIABLE, str(aborting_tool(tmp_path)))
    client = AgentClient(tmp_path)
    try:
        reply, _ = client.request("compile", sample_params("matmul", tmp_path / "crash"))
        assert reply["error"]["data"]["kind"] == "compiler_crashed"
        info, _ = client.request("info")
        ascend = next(entry for entry in info["result"]["backends"] if entry["name"] == "ascend")
        assert ascend["available"] and "ascend910_95" in ascend["targets"]
        ast, _ = client.request("ast", {"source_path": str(ASCEND_KERNELS / "matmul.py")})
        assert "matmul_kernel" in ast["result"]["triton_functions"]
    finally:
        client.close()
    assert client.stray_lines == []


@requires_triton_ascend
def test_an_ascend_compile_through_the_agent(agent, tmp_path):
    reply, progress = agent.request("compile", sample_params("vector_add", tmp_path))
    result = reply["result"]
    assert result["backend"] == "ascend" and result["metadata"]["mix_mode"] == "aiv"
    stages = [note.get("stage") for note in progress if note.get("stage")]
    assert stages == ["ttir", "ttadapter"]


def test_without_triton_ascend_the_compile_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setenv(ASCEND_PYTHON_VARIABLE, str(tmp_path / "no-such-python"))
    error = compile_error("vector_add", tmp_path / "work")
    assert error.code == COMPILE_ERROR and error.data["kind"] == "triton_missing"
    assert ASCEND_PYTHON_VARIABLE in error.message


@requires_triton_ascend
def test_a_kernel_error_names_its_line(tmp_path):
    kernel = tmp_path / "broken.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def broken(x_ptr, BLOCK: tl.constexpr):\n"
                      "    offsets = tl.arange(0, BLOCK)\n"
                      "    tl.store(x_ptr + offsets, undefined_name)\n")
    spec = {"kernel": "broken", "signature": {"x_ptr": "*fp32", "BLOCK": "constexpr"},
            "constexprs": {"BLOCK": 64}, "target": "ascend910_95"}
    with pytest.raises(StrataError) as caught:
        compile_sample("vector_add", tmp_path / "work", source_path=str(kernel), spec=spec,
                       spec_path=None)
    assert caught.value.data["kind"] == "frontend_error" and caught.value.data["line"] == 8


@requires_triton_ascend
def test_an_option_the_ascend_backend_lacks_is_a_bad_spec(tmp_path):
    spec = {**sample_params("vector_add", tmp_path)["spec"], "options": {"num_warp": 4}}
    error = compile_error("vector_add", tmp_path / "work", spec=spec)
    assert error.code == BAD_INPUT and error.data["kind"] == "bad_spec"
    assert error.data["spec_key"] == "options.num_warp"


def test_a_spec_that_is_not_an_object_is_a_bad_spec(tmp_path):
    error = compile_error("vector_add", tmp_path / "work", spec=["add_kernel"],
                          target="ascend910_95")
    assert error.code == BAD_INPUT and error.data["kind"] == "bad_spec"
