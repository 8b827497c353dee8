"""Processes a kernel module starts at import do not outlive the compile, successful or not."""
from __future__ import annotations

import os
import time
from pathlib import Path

from conftest import KERNELS


def alive(pid: int) -> bool:
    """Running or sleeping; a killed process waiting to be reaped (zombie) counts as gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def spawned_pids(work_dir: Path) -> list[int]:
    return [int(pid) for pid in (work_dir / "spawned.pids").read_text().split()]


def copy_params(work_dir: Path, **spec_overrides) -> dict:
    spec = {"kernel": "copy_kernel",
            "signature": {"x_ptr": "*fp32", "out_ptr": "*fp32", "BLOCK": "constexpr"},
            "constexprs": {"BLOCK": 128}, **spec_overrides}
    return {"source_path": str(KERNELS / "spawns_at_import.py"), "spec": spec,
            "work_dir": str(work_dir)}


def wait_until_gone(pids: list[int], seconds: float = 5) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def test_successful_compile_kills_what_the_module_spawned(agent, tmp_path):
    reply, progress = agent.request("compile", copy_params(tmp_path))
    assert "error" not in reply, reply.get("error")
    pids = spawned_pids(tmp_path)
    assert len(pids) == 2 and all(pid != os.getpid() for pid in pids)
    # The reply comes after the clean-up: both are gone already, not just eventually.
    assert [pid for pid in pids if alive(pid)] == []
    assert any("killed 2 process(es)" in message.get("message", str(message))
               for message in progress), progress


def test_failed_compile_kills_them_too(agent, tmp_path):
    params = copy_params(tmp_path, constexprs={"BLOCK": 100})   # arange needs a power of 2
    reply, _ = agent.request("compile", params)
    assert "error" in reply
    assert wait_until_gone(spawned_pids(tmp_path), seconds=0.5) == []
