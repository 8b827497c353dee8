"""The worker side of a warm spare (warm_worker.py is the agent's side): warm up, wait for one
handover on stdin, then turn this process into the compile worker the cold path would have
started: same environment, working directory, fds, sys.path and argv.

Nothing here touches a GPU: the warm-up imports and hashes files and runs `ptxas --version`;
importing torch (a preload) loads no CUDA context either, and nothing calls into the driver
before the request.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any, TextIO

# Heavy modules a kernel file may import (a task file imports torch: ~2 s, 650 MB). A spare
# preloads those an earlier compile needed (compile_worker reports them), never on a guess.
PRELOADABLE_MODULES = ("torch",)


def request_path_of(argv: list[str], progress: TextIO) -> str | None:
    """A worker's request file: argv[1] for a cold start; for `--spare`, the one handed over
    after the warm-up (None when the agent went away, or dropped this spare, before a request)."""
    if argv[1:2] == ["--spare"]:
        return serve_as_spare(argv[2:], progress)
    return argv[1]


def serve_as_spare(args: list[str], progress: TextIO) -> str | None:
    """Returns the request path once handed one; None when stdin closes first."""
    options = parse_spare_args(args)
    warm_up(options.arch, options.preload)
    say(progress, "ready")
    line = sys.stdin.readline()
    if not line.strip():
        # The agent is gone (killed, so it could not clean up) or dropped this spare.
        if options.home:
            shutil.rmtree(options.home, ignore_errors=True)
        return None
    handover = json.loads(line)
    take_over(handover)
    # Only now: a spare that dies before this line costs the agent a cold start, not a failure.
    say(progress, "accepted")
    return handover["request_path"]


def parse_spare_args(args: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="compile_worker --spare")
    parser.add_argument("--arch", type=int, default=90)
    parser.add_argument("--home", help="the spare's own folder, removed if no request comes")
    parser.add_argument("--preload", action="append", default=[],
                        choices=PRELOADABLE_MODULES)
    return parser.parse_args(args)


def say(progress: TextIO, word: str) -> None:
    progress.write(json.dumps({word: os.getpid()}) + "\n")
    progress.flush()


def warm_up(arch: int, preload: list[str]) -> None:
    """What every compile pays before its first pass, done ahead of it. Each result is cached
    for the life of the process and depends only on files and on the environment variables
    that are the same for every compile (warm_worker.constant_env)."""
    import triton  # noqa: F401  (and, with it, libtriton)
    import triton.language  # noqa: F401
    from triton.backends.nvidia.compiler import get_ptxas, get_ptxas_version
    from triton.compiler.compiler import ASTSource, make_backend  # noqa: F401
    from triton.backends.compiler import GPUTarget
    from triton.runtime.cache import triton_key
    triton_key()                 # sha256 of the 400 MB libtriton.so, part of every cache key
    make_backend(GPUTarget("cuda", arch, 32))
    get_ptxas_version(arch)      # `ptxas --version`, in the backend's hash
    get_ptxas(arch)              # NvidiaTool.from_path: `ptxas --version` again, for the PTX ISA
    for name in preload:
        # A module that fails to import ends the spare (the agent then starts cold workers,
        # whose own import reports the error where it belongs).
        importlib.import_module(name)


def take_over(handover: dict[str, Any]) -> None:
    redirect_output(Path(handover["stderr_path"]), Path(handover["warmup_log"]))
    apply_environment(handover["env"])
    work_dir = handover["work_dir"]
    if sys.path and sys.path[0] == os.getcwd():
        sys.path[0] = work_dir   # `python -m` put the start directory first, as a cold start does
    os.chdir(work_dir)
    sys.argv = [sys.argv[0], handover["request_path"]]
    devnull = os.open(os.devnull, os.O_RDONLY)   # a cold worker's stdin
    os.dup2(devnull, 0)
    os.close(devnull)


def redirect_output(stderr_path: Path, warmup_log: Path) -> None:
    """fd 2 (and fd 1, which joins it) to the compile's stderr file, which starts with what the
    warm-up printed: a cold worker would have printed it there while importing."""
    sys.stdout.flush()
    sys.stderr.flush()
    fd = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        printed = warmup_log.read_bytes()
    except OSError:
        printed = b""
    if printed:
        os.write(fd, printed)
    os.dup2(fd, 2)
    os.dup2(fd, 1)
    os.close(fd)


def apply_environment(env: dict[str, str]) -> None:
    """The compile's environment, whole: os.environ's setters call putenv/unsetenv, so the C++
    getenv calls (MLIR_ENABLE_DUMP when a pass manager runs, ...) see it too. triton.knobs reads
    its variables when they are used, except two it caches at import (TRITON_DEBUG,
    TRITON_INSTRUMENTATION_MODE); refresh_knobs reads those again."""
    os.environ.clear()
    os.environ.update(env)
    import triton.knobs
    triton.knobs.refresh_knobs()
