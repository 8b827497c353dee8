"""The warm spare worker (warm_worker.py, spare.py): a compile after the first is handed to a
worker started ahead with triton imported; it gives the same result as a cold start, falls back
to one when the spare is gone, and fails, times out and cleans up exactly as a cold worker."""
from __future__ import annotations

import hashlib
import os
import signal
import time
from pathlib import Path
from unittest import mock

import pytest

from conftest import AgentClient, compile_params
from test_process_cleanup import alive, wait_until_gone

TIMEOUT, WORKER_FAILED = -32002, -32004
SWITCH = "STRATA_AGENT_WARM_WORKER"


def start_agent(temp_dir: Path, warm: bool) -> AgentClient:
    temp_dir.mkdir(parents=True, exist_ok=True)   # else tempfile falls back to /tmp
    with mock.patch.dict(os.environ, {SWITCH: "1" if warm else "0"}):
        return AgentClient(temp_dir)


@pytest.fixture(scope="module")
def warm_agent(tmp_path_factory):
    client = start_agent(tmp_path_factory.mktemp("warm-agent"), warm=True)
    # The agent's first compile is cold and starts the first spare.
    reply, progress = client.request("compile", compile_params(
        "vector_add", "aligned", tmp_path_factory.mktemp("first")))
    assert "result" in reply, reply.get("error")
    assert worker_of(progress) == (progress[0]["worker_pid"], False)
    yield client
    client.close()


def worker_of(progress: list[dict]) -> tuple[int, bool]:
    """(pid, warm) of the compile's worker, from its first progress notification."""
    first = progress[0]
    return first["worker_pid"], first["warm_worker"]


def children(parent: int) -> list[tuple[int, str]]:
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if int(fields[1]) == parent and fields[0] != "Z":
            found.append((int(entry.name), command))
    return found


def spare_pid(agent: AgentClient, seconds: float = 10) -> int:
    """The agent's spare (a child running `compile_worker --spare`), waiting for it to start."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        spares = [pid for pid, command in children(agent.process.pid) if "--spare" in command]
        if spares:
            assert len(spares) == 1, spares
            return spares[0]
        time.sleep(0.05)
    raise AssertionError("the agent started no spare worker")


def kernel_file(tmp_path: Path, first_lines: str) -> dict:
    """Compile params for a one-line copy kernel whose module runs `first_lines` at import."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "kernel.py"
    path.write_text(first_lines + "\nimport triton\nimport triton.language as tl\n\n\n"
                    "@triton.jit\ndef copy_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):\n"
                    "    offsets = tl.arange(0, BLOCK)\n"
                    "    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets))\n")
    spec = {"kernel": "copy_kernel",
            "signature": {"x_ptr": "*fp32", "out_ptr": "*fp32", "BLOCK": "constexpr"},
            "constexprs": {"BLOCK": 128}}
    return {"source_path": str(path), "spec": spec, "work_dir": str(tmp_path / "work")}


def fingerprint(result: dict) -> dict:
    """Everything a compile produced, without the paths that name its work dir."""
    artifacts = {key: hashlib.sha256(artifact_bytes(key, Path(ref["path"]))).hexdigest()
                 for key, ref in result["artifacts"].items()}
    dumps = [{key: value for key, value in dump.items() if key != "path"}
             for dump in result["pass_dumps"]]
    return {"artifacts": artifacts, "pass_dumps": dumps, "remarks": result["remarks"],
            "ptxas": result["ptxas"], "metadata": result["metadata"]}


def artifact_bytes(key: str, path: Path) -> bytes:
    data = path.read_bytes()
    if key == "ptxas_log":   # "ptxas info : Compile time = 35.2 ms" differs run to run
        data = b"".join(line for line in data.splitlines(keepends=True)
                        if b"Compile time" not in line)
    return data


def test_second_compile_is_served_by_a_warm_worker(warm_agent, tmp_path):
    waiting = spare_pid(warm_agent)
    reply, progress = warm_agent.request("compile", compile_params("vector_add", "aligned",
                                                                   tmp_path))
    assert "result" in reply, reply.get("error")
    assert worker_of(progress) == (waiting, True)
    assert progress[0]["message"] == f"warm worker (pid {waiting})"
    assert wait_until_gone([waiting]) == []     # it compiled its one kernel and exited
    assert spare_pid(warm_agent) != waiting     # and the next spare is already there


def test_warm_and_cold_compiles_give_the_same_result(warm_agent, tmp_path):
    reply, progress = warm_agent.request("compile", compile_params("matmul", "default",
                                                                   tmp_path / "warm"))
    assert worker_of(progress)[1] is True
    warm = reply["result"]
    cold_agent = start_agent(tmp_path / "cold-tmp", warm=False)
    try:
        reply, progress = cold_agent.request("compile", compile_params("matmul", "default",
                                                                       tmp_path / "cold"))
        assert worker_of(progress)[1] is False
        assert [pid for pid, command in children(cold_agent.process.pid)
                if "--spare" in command] == []   # the switch is off: no spare at all
    finally:
        cold_agent.close()
    cold = reply["result"]
    assert len(warm["pass_dumps"]) > 50
    warm_print, cold_print = fingerprint(warm), fingerprint(cold)
    differing = [key for key in cold_print["artifacts"]
                 if warm_print["artifacts"].get(key) != cold_print["artifacts"][key]]
    assert differing == []
    assert warm_print == cold_print
    assert [p["stage"] for p in progress if "stage" in p] == ["ttir", "ttgir", "llir", "ptx",
                                                              "cubin"]


def test_pass_dump_setting_does_not_leak_into_the_next_compile(warm_agent, tmp_path):
    counts = []
    for index, dumps in enumerate((True, False, True)):
        work_dir = tmp_path / str(index)
        reply, progress = warm_agent.request("compile", compile_params(
            "vector_add", "unaligned", work_dir, pass_dumps=dumps))
        assert worker_of(progress)[1] is True
        result = reply["result"]
        counts.append(len(result["pass_dumps"]))
        assert len(list((work_dir / "passes").iterdir())) == counts[-1]
        assert [remark["line"] for remark in result["remarks"]] == [18, 19, 21]
    assert counts[0] > 10 and counts[1] == 0 and counts[2] == counts[0]


def test_killed_spare_falls_back_to_a_cold_start(warm_agent, tmp_path):
    waiting = spare_pid(warm_agent)
    os.kill(waiting, signal.SIGKILL)
    assert wait_until_gone([waiting]) == []
    reply, progress = warm_agent.request("compile", compile_params("vector_add", "aligned",
                                                                   tmp_path))
    assert "result" in reply, reply.get("error")
    pid, warm = worker_of(progress)
    assert not warm and pid != waiting
    assert "ld.global.v4" in Path(reply["result"]["artifacts"]["ptx"]["path"]).read_text()


def test_worker_killed_mid_compile_is_reported(warm_agent, tmp_path):
    def kill_worker(progress):
        if "worker_pid" in progress:
            assert progress["warm_worker"] is True
            os.kill(progress["worker_pid"], signal.SIGKILL)
    reply, _ = warm_agent.request("compile", compile_params("matmul", "default", tmp_path),
                                  on_progress=kill_worker)
    assert reply["error"]["code"] == WORKER_FAILED
    assert reply["error"]["data"]["kind"] == "worker_killed"
    assert reply["error"]["data"]["signal"] == "SIGKILL"


@pytest.mark.parametrize("crash, kind, field, value", [
    ("import ctypes; ctypes.string_at(0)", "worker_killed", "signal", "SIGSEGV"),
    ("import os; os._exit(3)", "worker_crashed", "exit_code", 3),
])
def test_crashing_kernel_module_is_reported(warm_agent, tmp_path, crash, kind, field, value):
    reply, progress = warm_agent.request("compile", kernel_file(tmp_path, crash))
    assert worker_of(progress)[1] is True
    assert reply["error"]["code"] == WORKER_FAILED
    assert reply["error"]["data"]["kind"] == kind
    assert reply["error"]["data"][field] == value
    reply, _ = warm_agent.request("info")   # and the agent keeps serving
    assert reply["result"]["protocol"] == 1


def test_timeout_kills_the_warm_worker(warm_agent, tmp_path):
    # A module that never finishes importing, and a timeout long enough for the spare to accept
    # the request on a loaded machine (a short one let it fall back to a cold start under load).
    params = {**kernel_file(tmp_path, "import time; time.sleep(600)"), "timeout_s": 5}
    reply, progress = warm_agent.request("compile", params)
    pid, warm = worker_of(progress)
    assert warm
    assert reply["error"]["code"] == TIMEOUT
    assert reply["error"]["data"]["kind"] == "timeout"
    assert not alive(pid)


def test_module_side_effects_stay_in_their_worker(warm_agent, tmp_path):
    """A module that sets a variable and a global at import; the next compile sees neither."""
    marker = "import os, builtins; os.environ['STRATA_LEAK'] = '1'; builtins.strata_leak = 1"
    reply, _ = warm_agent.request("compile", kernel_file(tmp_path / "a", marker))
    assert "result" in reply, reply.get("error")
    probe = ("import os, builtins\n"
             "assert 'STRATA_LEAK' not in os.environ and not hasattr(builtins, 'strata_leak')")
    reply, progress = warm_agent.request("compile", kernel_file(tmp_path / "b", probe))
    assert worker_of(progress)[1] is True
    assert "result" in reply, reply.get("error")


def test_spare_goes_with_the_agent(tmp_path):
    """On shutdown the agent kills its spare; killed outright, the spare exits by itself (its
    stdin closes); either way its folder goes too. No GPU library is loaded in a waiting
    spare."""
    for shutdown in (True, False):
        agent = start_agent(tmp_path / str(shutdown), warm=True)
        reply, _ = agent.request("compile", compile_params("vector_add", "aligned",
                                                           tmp_path / f"work-{shutdown}"))
        assert "result" in reply
        waiting = spare_pid(agent)
        assert "libcuda" not in Path(f"/proc/{waiting}/maps").read_text()
        if shutdown:
            agent.close()
        else:
            agent.process.kill()
            agent.process.wait()
        assert wait_until_gone([waiting], seconds=10) == [], shutdown
        assert list((tmp_path / str(shutdown)).glob("strata-spare-*")) == [], shutdown


def test_spares_preload_torch_once_a_kernel_needed_it(warm_agent, tmp_path):
    pytest.importorskip("torch")
    reply, _ = warm_agent.request("compile", kernel_file(tmp_path, "import torch  # noqa"))
    assert "result" in reply, reply.get("error")
    waiting = spare_pid(warm_agent)
    deadline = time.monotonic() + 10
    while "--preload=torch" not in dict(children(warm_agent.process.pid)).get(waiting, ""):
        assert time.monotonic() < deadline, "the spare was not restarted with torch"
        time.sleep(0.05)
        waiting = spare_pid(warm_agent)
    reply, progress = warm_agent.request("compile", compile_params("vector_add", "aligned",
                                                                   tmp_path / "next"))
    assert worker_of(progress) == (waiting, True)
    assert "result" in reply, reply.get("error")


@pytest.mark.parametrize("when", ["warming_up", "ready"])
def test_handover_to_a_spare_that_died_says_so(tmp_path, when):
    """A spare that dies after the pool handed it out, before it accepted: hand_over is False
    (the runner then starts cold) and the spare's folder is removed."""
    from strata_agent.backends.nvidia.compile import worker_env
    from strata_agent.backends.nvidia.warm_worker import SpareWorker
    spare = SpareWorker(worker_env(str(tmp_path / "cache"), True), 90, [])
    if when == "ready":
        assert spare.ready.wait(timeout=30)
    os.kill(spare.pid, signal.SIGKILL)
    work_dir = tmp_path / "work"
    work_dir.mkdir()
    accepted = spare.hand_over(work_dir / "request.json", work_dir, work_dir / "compile.stderr",
                               dict(os.environ), deadline=time.monotonic() + 30)
    assert accepted is False
    assert not alive(spare.pid) and not spare.home.exists()
