"""The warm spare: one compile worker started ahead of the next compile, so that compile does not
pay Python's start, `import triton` and Triton's own first-use costs (hashing the 400 MB
libtriton.so for its cache key, `ptxas --version`): ~0.8 s of a ~2 s matmul compile.

A spare is `python -m strata_agent.backends.nvidia.compile_worker --spare` (its side is
spare.py): it warms up, says {"ready": pid} and blocks reading one handover line on stdin.
The handover names the request, the work dir, the stderr file and the compile's whole
environment; the spare applies them as the cold path's Popen would have, says {"accepted":
pid}, compiles that one kernel and exits. Every spare serves exactly one request, so nothing a
user's kernel module does reaches the next compile, and a compiler crash takes only that worker.

A spare that is gone, or goes before it accepted, costs only a cold start (the caller falls
back to Popen). It runs in its own session like a cold worker, so a timeout and the clean-up
after it kill its whole group as before. The agent keeps at most one spare;
STRATA_AGENT_WARM_WORKER=0 turns spares off.

Task workers (`run_task`, `verify`, `time`: a fresh process per call, for isolation) get their
own pool, TASK_SPARES: the same handover, with torch imported ahead (task files import it,
~2 s) besides triton's first-use costs, and no CUDA context (nothing calls the driver before the
request). Calls wrapped in a profiler (`profile` under ncu) never take a spare.
"""
from __future__ import annotations

import atexit
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

from ...process_group import kill_group
from . import TASK_WORKER_MODULE
from .spare import PRELOADABLE_MODULES

WARM_SWITCH = "STRATA_AGENT_WARM_WORKER"
# The only variables that differ between two compiles (compile.worker_env); a spare
# started with the rest is equivalent to a cold worker once it has been handed these.
PER_COMPILE_ENV = ("TRITON_CACHE_DIR", "MLIR_ENABLE_DUMP")
DEFAULT_ARCH = 90
COMPILE_WORKER_MODULE = "strata_agent.backends.nvidia.compile_worker"


def warm_worker_enabled() -> bool:
    return os.environ.get(WARM_SWITCH, "1").strip().lower() not in ("0", "false", "no", "off")


def constant_env(env: dict[str, str]) -> dict[str, str]:
    return {key: value for key, value in env.items() if key not in PER_COMPILE_ENV}


class SpareWorker:
    """One started spare: its process, its stdout lines, and whether it has warmed up."""

    def __init__(self, env: dict[str, str], arch: int, modules: list[str],
                 worker_module: str = COMPILE_WORKER_MODULE):
        self.constant_env = constant_env(env)
        self.modules = modules
        # The spare's own folder: its cwd, its warm-up stderr, a Triton cache nothing should use.
        self.home = Path(tempfile.mkdtemp(prefix="strata-spare-"))
        self.warmup_log = self.home / "warmup.stderr"
        spare_env = {**self.constant_env, "TRITON_CACHE_DIR": str(self.home / "cache")}
        command = [sys.executable, "-m", worker_module, "--spare", "--arch", str(arch), "--home", str(self.home),
                   *(f"--preload={name}" for name in modules)]
        with open(self.warmup_log, "wb") as log:
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                cwd=self.home, env=spare_env, start_new_session=True)
        self.ready = threading.Event()
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read_stdout, daemon=True).start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            if _control_word(raw) == "ready":
                self.ready.set()
            else:
                self._lines.put(raw)
        self._lines.put(None)

    def hand_over(self, request_path: Path, work_dir: Path, stderr_path: Path,
                  env: dict[str, str], deadline: float) -> bool:
        """Gives the spare its request. True once it accepted; False when it was gone or had
        not accepted by `deadline` (it is then killed, and the caller starts a cold worker)."""
        handover = {"request_path": str(request_path), "work_dir": str(work_dir),
                    "stderr_path": str(stderr_path), "warmup_log": str(self.warmup_log),
                    "env": env}
        try:
            assert self.process.stdin is not None
            self.process.stdin.write((json.dumps(handover) + "\n").encode())
            self.process.stdin.close()   # one line, then EOF: what a cold worker's stdin gives
        except (OSError, ValueError):
            self.discard()
            return False
        if self._wait_accepted(deadline):
            return True
        self.discard()
        return False

    def _wait_accepted(self, deadline: float) -> bool:
        while True:
            try:
                raw = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return False
            if raw is None:
                return False          # it exited before it took the request
            if _control_word(raw) == "accepted":
                return True

    def progress_lines(self) -> Iterator[bytes]:
        """The worker's stdout after it accepted: progress lines until it exits."""
        return iter(self._lines.get, None)

    def discard(self) -> None:
        kill_group(self.process)
        self.remove_home()

    def remove_home(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)


def _control_word(raw: bytes) -> str | None:
    try:
        message = json.loads(raw)
    except ValueError:
        return None
    if isinstance(message, dict):
        return next((key for key in ("ready", "accepted") if key in message), None)
    return None


class SparePool:
    """The agent's one spare of a kind of worker. Thread-safe: calls run on request threads."""

    def __init__(self, worker_module: str = COMPILE_WORKER_MODULE,
                 preload: tuple[str, ...] = ()) -> None:
        self._worker_module = worker_module
        self._lock = threading.Lock()
        self._spare: SpareWorker | None = None
        self._modules: set[str] = set(preload)
        self._arch = DEFAULT_ARCH
        self._env: dict[str, str] | None = None     # the last compile's, for a replacement
        self._closed = False

    def take(self, env: dict[str, str]) -> SpareWorker | None:
        """The spare, if one is running and was started with this compile's environment."""
        if not warm_worker_enabled():
            return None
        with self._lock:
            spare, self._spare = self._spare, None
        if spare is not None and (not spare.alive() or spare.constant_env != constant_env(env)):
            spare.discard()
            return None
        return spare

    def replenish(self, env: dict[str, str], arch: int) -> None:
        """Starts the next spare. Popen returns at once; the child warms up on the other core
        while this compile runs (a compile is single-threaded: MLIR_ENABLE_DUMP turns MLIR's
        threads off)."""
        if not warm_worker_enabled():
            return
        with self._lock:
            self._arch, self._env = arch, env
            if self._closed or (self._spare is not None and self._spare.alive()):
                return
            self._spare = SpareWorker(env, arch, sorted(self._modules), self._worker_module)

    def remember_modules(self, modules: list[str]) -> None:
        """A compile's kernel imported `modules`: from now on spares preload them too (the
        spare already started without them is replaced)."""
        new = {name for name in modules if name in PRELOADABLE_MODULES} - self._modules
        if not new or not warm_worker_enabled():
            return
        with self._lock:
            self._modules |= new
            stale, self._spare = self._spare, None
            env, arch = self._env, self._arch
        if stale is not None:
            stale.discard()
        if env is not None:
            self.replenish(env, arch)

    def close(self) -> None:
        """Kills the spare; no new one starts (agent shutdown)."""
        with self._lock:
            self._closed = True
            spare, self._spare = self._spare, None
        if spare is not None:
            spare.discard()


SPARES = SparePool()
TASK_SPARES = SparePool(TASK_WORKER_MODULE, preload=("torch",))
# A spare also exits by itself when the agent goes (EOF on its stdin); this covers an orderly
# interpreter exit with a spare mid warm-up, e.g. run_compile called in-process by the tests.
atexit.register(SPARES.close)
atexit.register(TASK_SPARES.close)
