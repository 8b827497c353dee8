"""`time` and `profile` with an Ascend target, through the agent (JSON-RPC over stdio).

No NPU and no CANN here. On this host the replies must say which is missing; on a stand-in
Ascend host (fake_ascend_host/: an `npu-smi` and an `msprof` that copies the hand-written
msprof_fixtures, plus ASCEND_HOME_PATH) the profile reply must carry the parsed msprof figures
in the shape of the CUDA profile reply. The figures are the fixtures' made-up numbers
(msprof_fixtures/README.md), never a measurement.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import REPO, AgentClient
from strata_agent.backends.ascend import npu_host

from ascend_helpers import requires_triton_ascend

HERE = Path(__file__).resolve().parent
FAKE_HOST = HERE / "fake_ascend_host"
TASK = REPO / "suites" / "ascend-npukernelbench" / "cumsum_fp16.py"


@pytest.fixture
def bare_host(monkeypatch, tmp_path):
    """This machine as it is, minus anything that could make it look like an Ascend host."""
    for variable in npu_host.CANN_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    client = AgentClient(tmp_path)
    yield client
    client.close()


@pytest.fixture
def stand_in_host(monkeypatch, tmp_path):
    """CANN's variable, an `npu-smi` and an `msprof` stand-in on PATH."""
    cann = tmp_path / "cann"
    cann.mkdir()
    monkeypatch.setenv("ASCEND_HOME_PATH", str(cann))
    monkeypatch.setenv("PATH", f"{FAKE_HOST}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STRATA_FAKE_MSPROF_LOG", str(tmp_path / "msprof-argv.json"))
    client = AgentClient(tmp_path)
    yield client, tmp_path
    client.close()


def test_host_checks_name_what_is_missing(monkeypatch, tmp_path):
    for variable in npu_host.CANN_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    assert npu_host.unavailable(need_msprof=True)["reason"] == npu_host.NO_CANN
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    missing = npu_host.unavailable(need_msprof=False)
    if not npu_host.npu_present():   # /dev/davinci* would make this host an NPU host
        assert missing["reason"] == npu_host.NO_NPU and "npu-smi" in missing["message"]
    monkeypatch.setenv("PATH", str(FAKE_HOST))
    assert npu_host.unavailable(need_msprof=False) is None
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "npu-smi").symlink_to(FAKE_HOST / "npu-smi")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert npu_host.unavailable(need_msprof=True)["reason"] == npu_host.NO_MSPROF


def test_time_without_cann_is_a_clear_error(bare_host):
    reply, _ = bare_host.request("time", {"task": str(TASK), "target": "ascend910_95"})
    error = reply["error"]
    assert error["code"] == -32004 and error["data"]["kind"] == "npu_unavailable"
    assert error["data"]["reason"] in ("no_cann", "no_triton_ascend")
    assert "cannot time on an Ascend NPU" in error["message"]
    assert error["data"]["target"] == "ascend910_95" and error["data"]["file"] == str(TASK)


def test_profile_without_cann_says_unavailable(bare_host):
    reply, _ = bare_host.request("profile", {"task": str(TASK), "target": "ascend910_95"})
    result = reply["result"]
    assert result["backend"] == "ascend" and result["target"] == "ascend910_95"
    assert result["kernels"] == [] and result["task"] == str(TASK)
    assert result["ncu"]["profiler"] == "msprof" and result["ncu"]["status"] == "unavailable"
    assert result["ncu"]["reason"] in ("no_cann", "no_triton_ascend")


def test_time_without_a_target_is_still_the_cuda_method(bare_host):
    """No target: the CUDA `time` as before (here it fails in the worker: no CUDA GPU or no
    torch), never the Ascend path."""
    reply, _ = bare_host.request("time", {"task": str(TASK)}, timeout=600)
    assert reply.get("error", {}).get("data", {}).get("kind") != "npu_unavailable"


@requires_triton_ascend
def test_time_on_a_host_whose_python_lacks_torch_npu(stand_in_host):
    """The checks pass (stand-in CANN and npu-smi); the worker under triton-ascend's Python
    cannot import torch_npu and says so instead of crashing."""
    client, _ = stand_in_host
    reply, progress = client.request("time", {"task": str(TASK), "target": "ascend910_95"})
    error = reply["error"]
    assert error["data"]["kind"] == "npu_unavailable"
    assert error["data"]["reason"] == "no_torch_npu" and "torch_npu" in error["message"]
    assert any("Ascend worker started" in p["message"] for p in progress)


@requires_triton_ascend
def test_profile_reads_msprof_output_into_the_profile_reply(stand_in_host):
    client, tmp_path = stand_in_host
    work_dir = tmp_path / "profile"
    reply, _ = client.request("profile", {"task": str(TASK), "target": "ascend910_95",
                                          "kernel": "cumsum_kernel", "work_dir": str(work_dir)})
    result = reply["result"]
    argv = json.loads((tmp_path / "msprof-argv.json").read_text())
    assert argv[:2] == ["op", "--kernel-name=cumsum_kernel"]
    assert f"--output={work_dir}" in argv and "--warm-up=1" in argv
    assert "strata_agent.backends.ascend.npu_task_worker" in argv
    ncu = result["ncu"]
    assert ncu["status"] == "ok" and ncu["profiler"] == "msprof"
    assert ncu["path"] == str(FAKE_HOST / "msprof")
    [kernel] = ncu["kernels"]
    assert kernel["kernel"] == "add_kernel" and kernel["grid"] == "40"
    assert kernel["sections"]["PipeUtilization"]["aiv_scalar_ratio"]["value"] == \
        pytest.approx((0.125 + 0.3) / 2)
    assert kernel["sections"]["OpBasicInfo"]["Task Duration(us)"]["value"] == 10.0
    view = ncu["source"]["code_exe"]
    assert view["cost_column"] == "cycles" and view["lines"][0]["line"] == 11
    if os.environ.get("STRATA_WRITE_ASCEND_PROFILE_REPLY"):
        # tests/fixtures/ascend/l2/profile-reply.json, which the Qt tests read, came from here.
        Path(os.environ["STRATA_WRITE_ASCEND_PROFILE_REPLY"]).write_text(
            json.dumps(reply, indent=1) + "\n")


def test_info_names_the_npus_only_on_a_host_that_can_run_on_them(monkeypatch, tmp_path):
    """A bench on an NPU host names its device from the Ascend entry of `info` (not "cpu (no GPU)")."""
    for variable in npu_host.CANN_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    assert npu_host.device_name() is None  # no CANN
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    monkeypatch.setenv("PATH", str(FAKE_HOST))
    monkeypatch.setattr(npu_host, "NPU_DEVICE_GLOB", str(tmp_path / "davinci[0-9]*"))
    assert npu_host.device_name() == "Ascend NPU"  # npu-smi only
    for index in range(2):
        (tmp_path / f"davinci{index}").touch()
    assert npu_host.device_name() == "Ascend NPU x2"
