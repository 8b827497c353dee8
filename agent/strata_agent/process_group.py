"""Workers run in their own session, so a kill takes the whole process group (a compile's
assembler, a task's device runtime helpers) and never leaves orphans behind: on a timeout, and
also after a worker that exited on its own, whose children (a kernel module that spawned a
process at import) would otherwise outlive the compile."""
from __future__ import annotations

import os
from pathlib import Path
import signal
import subprocess


def kill_group(process: subprocess.Popen | None) -> None:
    """SIGKILL the group led by `process` (if still running) and reap it."""
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def kill_leftovers(process: subprocess.Popen | None) -> int:
    """After the worker (the group and session leader) has exited and been reaped: SIGKILL what
    it left running in its process group and session. Linux does not reuse a PID while it still
    names a live group or session, so this never hits an unrelated process. Returns how many
    processes were signalled (best effort; 0 where /proc is missing)."""
    if process is None or process.poll() is None:
        return 0
    leader = process.pid
    killed = 0
    for pid in _session_members(leader):
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.killpg(leader, signal.SIGKILL)   # the group, where /proc could not be read
    except (ProcessLookupError, PermissionError):
        pass
    return killed


def _session_members(session: int) -> list[int]:
    """PIDs whose process group or session is `session` (fields 5 and 6 of /proc/PID/stat)."""
    members = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()   # after "pid (comm) "
        if len(fields) > 3 and (int(fields[2]) == session or int(fields[3]) == session):
            members.append(int(entry.name))
    return members
