"""A kernel file whose import starts processes, as a module that launches a helper would: one
`sleep 300` in the worker's process group and one that moved to a group of its own. Their PIDs
go to spawned.pids in the working directory (the compile's work dir)."""
import subprocess
from pathlib import Path

import triton
import triton.language as tl

_SLEEPERS = [subprocess.Popen(["sleep", "300"]),
             subprocess.Popen(["sleep", "300"], process_group=0)]
Path("spawned.pids").write_text(" ".join(str(process.pid) for process in _SLEEPERS))


@triton.jit
def copy_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets))
