"""Warm spare task workers (warm_worker.TASK_SPARES): after the agent's first task call, the next
one is handed to a worker started ahead with torch and triton loaded. It gives the same verdict
as a cold worker, still times out and is killed like one, and STRATA_AGENT_WARM_WORKER=0 turns
spares off. Runs under Triton's interpreter (the smoke tasks' interpret_shapes)."""
from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path
from unittest import mock

import pytest

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed: task worker tests need it (pip install torch)",
                allow_module_level=True)

from conftest import AgentClient  # noqa: E402
from test_process_cleanup import wait_until_gone  # noqa: E402

SMOKE = Path(__file__).resolve().parents[4] / "suites" / "tasks-smoke"
SWITCH = "STRATA_AGENT_WARM_WORKER"


def start_agent(temp_dir: Path, warm: bool) -> AgentClient:
    temp_dir.mkdir(parents=True, exist_ok=True)
    with mock.patch.dict(os.environ, {SWITCH: "1" if warm else "0"}):
        return AgentClient(temp_dir)


def verify_call(client: AgentClient, name: str, **params) -> tuple[dict, list[dict], float]:
    started = time.monotonic()
    reply, progress = client.request("verify", {"task": str(SMOKE / f"{name}.py"),
                                                "interpret": True, **params})
    assert "result" in reply, reply.get("error")
    return reply["result"], progress, time.monotonic() - started


def warm_pid(progress: list[dict]) -> int | None:
    for note in progress:
        if note.get("warm_worker"):
            return note["worker_pid"]
    return None


def test_second_call_is_warm_and_gives_the_same_verdict(tmp_path):
    client = start_agent(tmp_path / "agent", warm=True)
    try:
        cold, cold_progress, cold_s = verify_call(client, "vector_add")
        assert warm_pid(cold_progress) is None   # the agent's first call has no spare yet
        time.sleep(3)   # let the spare finish warming up, as it does while a call runs
        warm, warm_progress, warm_s = verify_call(client, "vector_add")
        pid = warm_pid(warm_progress)
        assert pid is not None, warm_progress
        # The worker that reported its start is the spare that took the call.
        started = [n for n in warm_progress if n["message"].startswith("worker started")]
        assert started and started[0]["worker_pid"] == pid
        assert warm["verdict"] == cold["verdict"] == "pass"
        assert warm["shapes"] == cold["shapes"]
        print(f"verify vector_add: cold {cold_s:.2f} s, warm {warm_s:.2f} s")
        wrong, _, _ = verify_call(client, "wrong_off_by_one")
        assert wrong["verdict"] == "fail"
    finally:
        client.close()


def test_a_warm_worker_times_out_and_is_killed(tmp_path):
    client = start_agent(tmp_path / "agent", warm=True)
    try:
        verify_call(client, "vector_add")
        time.sleep(3)
        result, progress, _ = verify_call(client, "hang_forever", timeout_s=8)
        pid = warm_pid(progress)
        assert pid is not None
        assert {reason["kind"] for reason in result["reasons"]} == {"timeout"}
        assert wait_until_gone([pid]) == [], "the timed-out warm worker is still running"
    finally:
        client.close()


def test_switch_turns_task_spares_off(tmp_path):
    client = start_agent(tmp_path / "agent", warm=False)
    try:
        for _ in range(2):
            result, progress, _ = verify_call(client, "vector_add")
            assert result["verdict"] == "pass"
            assert warm_pid(progress) is None
    finally:
        client.close()
