"""A minimal JSON-RPC client for `python -m strata_agent --stdio` (agent/PROTOCOL.md).

Used by check_suite.py and the suite tests: they verify tasks through the real agent, the way
Strata does, instead of importing the agent's internals.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
AGENT_DIR = REPO / "agent"


class AgentError(RuntimeError):
    """The agent answered with a JSON-RPC error or went away."""


class AgentClient:
    """Starts one agent process; `call` sends a request and waits for its reply."""

    def __init__(self, python: str | None = None, extra_env: dict | None = None) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(AGENT_DIR),
                                                          env.get("PYTHONPATH")]))
        env.update(extra_env or {})
        self.process = subprocess.Popen(
            [python or sys.executable, "-m", "strata_agent", "--stdio"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO)
        self.replies: queue.Queue = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue  # stdout must be protocol only; the agent's own tests enforce it
            if "id" in message and message.get("method") is None:
                self.replies.put(message)
        self.replies.put(None)

    def call(self, method: str, params: dict | None = None, timeout: float = 600) -> dict:
        request_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}}
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        while True:
            try:
                reply = self.replies.get(timeout=timeout)
            except queue.Empty:
                raise AgentError(f"no reply to {method} within {timeout} s") from None
            if reply is None:
                raise AgentError(f"the agent exited before replying to {method}")
            if reply.get("id") != request_id:
                continue
            if "error" in reply:
                error = reply["error"]
                raise AgentError(f"{method} failed: {error.get('code')} {error.get('message')}"
                                 f" {json.dumps(error.get('data', {}))[:400]}")
            return reply["result"]

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.call("shutdown", timeout=30)
            except AgentError:
                pass
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def __enter__(self) -> "AgentClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
