"""Workers run in their own session, so a kill takes the whole process group (a compile's ptxas,
a task's CUDA helpers) and never leaves orphans behind."""
from __future__ import annotations

import os
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
