"""JSON-RPC 2.0 over stdio, one message per line (agent/PROTOCOL.md).

stdout carries protocol lines only; logging goes to stderr. Each request runs on its own
thread so `info` or `ast` answer while a compile runs; replies may come out of order and are
matched by id. Writes to stdout are serialised by a lock.
"""
from __future__ import annotations

import json
import logging
import os
import threading
from typing import Any, Callable, TextIO

from .ast_json import ast_result
from .backends import (release_backends, run_profile, run_run_task, run_time,
                       run_verify)
from .compile_runner import WorkerProcess, run_compile
from .errors import (INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError,
                     invalid_params)
from .info import METHODS, info_result
from .task_runner import ceilings

log = logging.getLogger("strata_agent")


class Server:
    def __init__(self, reader: TextIO, writer: TextIO):
        self.reader = reader
        self.writer = writer
        self.write_lock = threading.Lock()
        self.workers: set[WorkerProcess] = set()
        self.workers_lock = threading.Lock()
        self.threads: list[threading.Thread] = []
        self.stopping = threading.Event()
        self.methods: dict[str, Callable[[Any, Any], Any]] = {
            "info": lambda params, request_id: info_result(),
            "compile": self.task_method(run_compile),
            "ast": self.ast,
            "shutdown": self.shutdown,
            "run_task": self.task_method(run_run_task),   # by target: NVIDIA GPU or Ascend NPU
            "verify": self.task_method(run_verify),       # by target: NVIDIA GPU or Ascend NPU
            "time": self.task_method(run_time),          # by target: NVIDIA GPU or Ascend NPU
            "profile": self.task_method(run_profile),    # by target: the backend's profiler
            "ceilings": self.task_method(ceilings),
        }
        assert set(self.methods) == set(METHODS)

    # --- transport -------------------------------------------------------------------------
    def send(self, message: dict) -> None:
        line = json.dumps(message, separators=(",", ":"))
        with self.write_lock:
            self.writer.write(line + "\n")
            self.writer.flush()

    def reply(self, request_id: Any, result: Any = None, error: RpcError | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        if error is not None:
            message["error"] = error.to_json()
        else:
            message["result"] = result
        self.send(message)

    def notify_progress(self, request_id: Any, message: str, **extra: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": "progress",
                   "params": {"id": request_id, "message": message, **extra}})

    def serve(self) -> int:
        for line in self.reader:
            if self.stopping.is_set():
                break
            if line.strip():
                self.accept(line)
        for thread in list(self.threads):
            thread.join()
        release_backends()
        return 0

    # --- dispatch --------------------------------------------------------------------------
    def accept(self, line: str) -> None:
        try:
            message = json.loads(line)
        except ValueError as error:
            self.reply(None, error=RpcError(PARSE_ERROR, f"parse error: {error}"))
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" \
                or not isinstance(message.get("method"), str):
            request_id = message.get("id") if isinstance(message, dict) else None
            self.reply(request_id, error=RpcError(
                INVALID_REQUEST, "invalid request: need a JSON object with jsonrpc \"2.0\" and a "
                "string method (batches are not supported)"))
            return
        thread = threading.Thread(target=self.handle, args=(message,), daemon=True)
        self.threads = [alive for alive in self.threads if alive.is_alive()] + [thread]
        thread.start()

    def handle(self, message: dict) -> None:
        is_notification = "id" not in message
        request_id = message.get("id")
        method = self.methods.get(message["method"])
        try:
            if method is None:
                raise RpcError(METHOD_NOT_FOUND, f"method not found: {message['method']}")
            params = message.get("params", {})
            if not isinstance(params, dict):
                raise invalid_params("params must be an object")
            result = method(params, request_id)
        except RpcError as error:
            if not is_notification:
                self.reply(request_id, error=error)
            return
        except Exception as error:  # never let one request take the agent down
            log.exception("request %r failed", request_id)
            if not is_notification:
                self.reply(request_id, error=RpcError(
                    INTERNAL_ERROR, f"internal error: {type(error).__name__}: {error}"))
            return
        if not is_notification:
            self.reply(request_id, result)
        if message["method"] == "shutdown":
            self.finish()

    # --- methods ---------------------------------------------------------------------------
    def task_method(self, method: Callable[..., dict]) -> Callable[[dict, Any], dict]:
        """A worker-backed method (compile, task methods): progress notifications, and its
        worker killed on shutdown."""
        def call(params: dict, request_id: Any) -> dict:
            current: list[Any] = []

            def progress(message: str, **extra: Any) -> None:
                self.notify_progress(request_id, message, **extra)

            def track(worker: Any) -> None:
                with self.workers_lock:
                    if worker is not None:
                        current.append(worker)
                        self.workers.add(worker)
                    else:
                        for finished in current:
                            self.workers.discard(finished)
            return method(params, progress, on_worker=track)
        return call

    def ast(self, params: dict, request_id: Any) -> dict:
        source_path = params.get("source_path")
        kernel = params.get("kernel")
        if not isinstance(source_path, str) or not source_path:
            raise invalid_params("ast needs 'source_path' (string)")
        if kernel is not None and not isinstance(kernel, str):
            raise invalid_params("'kernel' must be a string")
        return ast_result(os.path.abspath(source_path), kernel)

    def shutdown(self, params: dict, request_id: Any) -> dict:
        self.stopping.set()
        return {"ok": True}

    def finish(self) -> None:
        """After the shutdown reply: stop running compiles and the spare worker, and leave."""
        release_backends()
        with self.workers_lock:
            running = list(self.workers)
        for worker in running:
            worker.kill()
        with self.write_lock:
            self.writer.flush()
        os._exit(0)
