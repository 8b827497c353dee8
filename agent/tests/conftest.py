"""Shared helpers: a client that talks to a real `python -m strata_agent --stdio` process."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

AGENT_DIR = Path(__file__).resolve().parents[1]
REPO = AGENT_DIR.parent
SAMPLES = REPO / "suites" / "samples"
KERNELS = Path(__file__).resolve().parent / "cpu" / "kernels"


class AgentClient:
    """Drives the agent over stdio. Every stdout line must be a JSON-RPC message."""

    def __init__(self, temp_dir: Path | None = None) -> None:
        env = dict(os.environ)
        if temp_dir is not None:
            env["TMPDIR"] = str(temp_dir)  # default work dirs of the agent land here
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(AGENT_DIR), env.get("PYTHONPATH")]))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "strata_agent", "--stdio"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
        self.messages: queue.Queue = queue.Queue()
        self.stray_lines: list[str] = []
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            try:
                self.messages.put(json.loads(line))
            except ValueError:
                self.stray_lines.append(line)
        self.messages.put(None)

    def _drain_stderr(self) -> None:
        for _ in self.process.stderr:
            pass

    def send_raw(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict | None = None, timeout: float = 300,
                on_progress=None) -> tuple[dict, list[dict]]:
        """Sends one request; returns (reply, progress notifications for it)."""
        request_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send_raw(json.dumps(message))
        return self.wait_reply(request_id, timeout, on_progress)

    def wait_reply(self, request_id, timeout: float = 300, on_progress=None):
        progress = []
        while True:
            message = self.messages.get(timeout=timeout)
            assert message is not None, "agent exited before replying"
            assert message.get("jsonrpc") == "2.0"
            if message.get("method") == "progress":
                if message["params"]["id"] == request_id:
                    progress.append(message["params"])
                    if on_progress:
                        on_progress(message["params"])
                continue
            if message.get("id") == request_id:
                return message, progress

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.request("shutdown", timeout=30)
            except Exception:
                pass
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture(scope="session")
def agent(tmp_path_factory):
    client = AgentClient(tmp_path_factory.mktemp("agent-tmp"))
    yield client
    client.close()
    assert client.stray_lines == [], "agent wrote non-protocol lines on stdout"


def load_spec(name: str, variant: str) -> dict:
    return json.loads((SAMPLES / f"{name}.{variant}.spec.json").read_text())


def compile_params(name: str, variant: str, work_dir: Path, **overrides) -> dict:
    params = {"source_path": str(SAMPLES / f"{name}.py"), "spec": load_spec(name, variant),
              "work_dir": str(work_dir)}
    params.update(overrides)
    return params
