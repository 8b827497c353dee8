"""Error codes and the exception types that carry them to a JSON-RPC error reply."""
from __future__ import annotations

from typing import Any

# Standard JSON-RPC 2.0 codes.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

# Strata's own codes (agent/PROTOCOL.md, "Errors").
COMPILE_ERROR = -32001
TIMEOUT = -32002
BAD_INPUT = -32003
WORKER_FAILED = -32004


class RpcError(Exception):
    """An error that becomes the `error` member of a JSON-RPC reply."""

    def __init__(self, code: int, message: str, data: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


def error_data(kind: str, message: str, file: str | None = None, line: int | None = None,
               kernel: str | None = None, **extra: Any) -> dict[str, Any]:
    """The structured `data` of every Strata error: always the same five keys, plus extras."""
    data = {"kind": kind, "message": message, "file": file, "line": line, "kernel": kernel}
    data.update(extra)
    return data


class StrataError(RpcError):
    """A Strata-coded error (-32001..-32004) whose data names the kind, file, line and kernel."""

    def __init__(self, code: int, kind: str, message: str, file: str | None = None,
                 line: int | None = None, kernel: str | None = None, **extra: Any):
        super().__init__(code, message, error_data(kind, message, file, line, kernel, **extra))
        self.kind = kind


def bad_input(kind: str, message: str, **where: Any) -> StrataError:
    return StrataError(BAD_INPUT, kind, message, **where)


def invalid_params(message: str) -> RpcError:
    return RpcError(INVALID_PARAMS, message)
