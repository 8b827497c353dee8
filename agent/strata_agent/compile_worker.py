"""What every backend's compile worker does the same way (backends/nvidia/compile_worker.py,
backends/ascend/worker.py subclass `Worker`): import the kernel's file as the user's module (or
as the package module it is), find the @triton.jit function, check the spec against it, turn a
Triton front-end error into the kernel's file and line, write artifacts, report progress.

Channels: stdout carries progress lines ({"progress": "..."}) for the parent. C++ output that
would go to fd 1 is sent to stderr instead (open_progress_channel), which the parent captures
whole: the MLIR pass dumps, remarks, and the stage markers, all in the order they happened.
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
import traceback
from pathlib import Path
from typing import Any, TextIO

from .ast_json import find_function, parse_source_file
from .errors import BAD_INPUT, COMPILE_ERROR, StrataError, bad_input
from .spec import SpecWhere, check_against_kernel

STAGE_MARKER = "// -----// STRATA STAGE {stage} //----- //"


class Worker:
    """One compile in this process; a backend's subclass compiles and writes its stages."""

    def __init__(self, request: dict, progress: TextIO):
        self.request = request
        self.def_line: int | None = None
        self.progress_channel = progress
        self.source_path = request["source_path"]
        self.spec = request["spec"]
        self.kernel = self.spec["kernel"]
        self.work_dir = Path(request["work_dir"])
        self.spec_where = SpecWhere(self.source_path, request.get("spec_path"), self.kernel)

    def report(self, message: str, **fields: Any) -> None:
        self.progress_channel.write(json.dumps({"progress": message, **fields}) + "\n")
        self.progress_channel.flush()

    def where(self, line: int | None = None) -> dict[str, Any]:
        return {"file": self.source_path, "line": line, "kernel": self.kernel}

    def load_kernel(self) -> Any:
        """The request's @triton.jit function, imported from its file and checked against the
        spec (names, constexprs)."""
        tree = parse_source_file(self.source_path, self.kernel)
        definition = find_function(tree, self.kernel)
        self.def_line = definition.lineno if definition else None
        self.report("importing kernel module")
        jit_function = self.find_kernel(self.import_module())
        params = [(param.name, bool(param.is_constexpr)) for param in jit_function.params]
        check_against_kernel(self.spec, params, {**self.where(self.def_line),
                                                 "spec_file": self.spec_where.spec_path})
        return jit_function

    def import_module(self) -> Any:
        packaged = package_module_name(Path(self.source_path))
        if packaged:
            # A library's kernel file (flag_gems/ops/embedding.py) is imported as the module it
            # is: relative imports work, and its folder is not put on sys.path, where its
            # copy.py or random.py would shadow the standard library's while torch imports.
            name, root = packaged
            sys.path.insert(0, str(root))
            return self.run_import(lambda: importlib.import_module(name))
        module_name = f"strata_kernel_{Path(self.source_path).stem}"
        location = importlib.util.spec_from_file_location(module_name, self.source_path)
        if location is None or location.loader is None:
            raise bad_input("not_python", "cannot load as a Python module", **self.where())
        module = importlib.util.module_from_spec(location)
        sys.modules[module_name] = module
        sys.path.insert(0, str(Path(self.source_path).parent))
        return self.run_import(lambda: location.loader.exec_module(module) or module)

    def run_import(self, load) -> Any:
        try:
            return load()
        except SyntaxError as error:
            raise bad_input("syntax_error", f"syntax error: {error.msg}",
                            **self.where(error.lineno)) from error
        except Exception as error:  # the user's module raised while importing
            raise bad_input("import_error", f"importing the kernel file raised "
                            f"{type(error).__name__}: {error}",
                            **self.where(self.line_in_traceback(error))) from error

    def line_in_traceback(self, error: BaseException) -> int | None:
        frames = traceback.extract_tb(error.__traceback__)
        lines = [frame.lineno for frame in frames
                 if os.path.abspath(frame.filename) == os.path.abspath(self.source_path)]
        return lines[-1] if lines else None

    def find_kernel(self, module: Any) -> Any:
        from triton.runtime.jit import JITFunction
        available = sorted(name for name, value in vars(module).items()
                           if isinstance(unwrap_kernel(value), JITFunction))
        candidate = unwrap_kernel(getattr(module, self.kernel, None))
        if isinstance(candidate, JITFunction):
            return candidate
        if not available:
            raise bad_input("not_triton", "no @triton.jit function in this file; is it a Triton "
                            "kernel file?", **self.where(), available=[])
        raise bad_input("unknown_kernel", f"no @triton.jit function '{self.kernel}' here; "
                        f"available: {', '.join(available)}", **self.where(), available=available)

    def check_option_names(self, target: Any) -> None:
        """Triton keeps only the options its backend knows and drops the rest without a word, so
        a misspelt `num_warp` would compile with the default. Names are checked here instead."""
        from triton.compiler.compiler import make_backend
        known = set(getattr(make_backend(target).parse_options({}), "__dataclass_fields__", {}))
        for name in self.spec["options"]:
            if known and name not in known:
                raise self.spec_where.error(
                    f"spec.options.{name} is not an option of Triton's {target.backend} backend "
                    f"(known: {', '.join(sorted(known))})", f"options.{name}")

    def compile_failure(self, error: Exception) -> StrataError:
        from triton.compiler.errors import CompilationError
        message = str(error)
        if isinstance(error, CompilationError):
            message += chained_cause(error)
            line, column = compilation_error_position(error, self.def_line)
            misuse = self.string_constexpr_at(line)
            if misuse:
                return self.string_constexpr_error(misuse, line, error)
            return StrataError(COMPILE_ERROR, "frontend_error", message, **self.where(line),
                               column=column, error_type=type(error).__name__)
        if "PassManager::run failed" in message:
            # The parent fills file and line from the C++ diagnostics on stderr.
            return StrataError(COMPILE_ERROR, "pass_failed", message, **self.where())
        if isinstance(error, (KeyError, TypeError, ValueError, AssertionError)):
            # Triton raises these for options or signatures it does not accept.
            return StrataError(BAD_INPUT, "rejected_by_triton", f"{type(error).__name__}: "
                               f"{message}", **self.where(self.line_in_traceback(error)))
        return StrataError(COMPILE_ERROR, "compile_error", f"{type(error).__name__}: {message}",
                           **self.where(self.line_in_traceback(error)))

    def string_constexpr_at(self, line: int | None) -> str | None:
        """The string-valued constexpr the failing kernel line uses, if any: `"BLOCK": "abc"`
        fails inside Triton with an AttributeError or TypeError about `str`, which is the spec's
        fault, not the kernel's."""
        strings = [name for name, value in self.spec["constexprs"].items()
                   if isinstance(value, str)]
        if not strings or line is None:
            return None
        text = source_line(self.source_path, line)
        return next((name for name in strings if re.search(rf"\b{re.escape(name)}\b", text)),
                    None)

    def string_constexpr_error(self, name: str, line: int, error: Exception) -> StrataError:
        value = self.spec["constexprs"][name]
        hint = ""
        if re.fullmatch(r"-?[0-9]+(\.[0-9]*)?", value.strip()):
            hint = f"; write it as a number: {value.strip()}, without quotes"
        detail = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
        return self.spec_where.error(
            f"spec.constexprs.{name} is the string \"{value[:60]}\", but the kernel uses {name} "
            f"where Triton cannot take a string ({Path(self.source_path).name}:{line}: "
            f"{source_line(self.source_path, line).strip()}){hint}. Triton said: {detail}",
            f"constexprs.{name}", kernel_line=line, compiler_error=detail)

    def write(self, file_name: str, content: str | bytes) -> str:
        path = self.work_dir / file_name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return str(path)


def chained_cause(error: BaseException) -> str:
    """What Triton chained under a CompilationError, which often carries no message of its own
    ("at 28:15:" and the source excerpt): an error inside a called @triton.jit helper is a
    CompilationError raised `from` the helper's own, and a Python error (NameError, TypeError) is
    the last link. Returns the innermost link's text, prefixed "\n\nCaused by ", or "" when the
    chain adds nothing."""
    from triton.compiler.errors import CompilationError
    chain, seen = [], {id(error)}
    cause = error.__cause__ or error.__context__
    while cause is not None and id(cause) not in seen and len(chain) < 16:
        seen.add(id(cause))
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    if not chain:
        return ""
    root = chain[-1]
    text = str(root).strip()
    if not isinstance(root, CompilationError):
        text = f"{type(root).__name__}: {text}" if text else type(root).__name__
    if not text or text in str(error):
        return ""
    return "\n\nCaused by " + text


def source_line(path: str, line: int) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return ""
    return lines[line - 1] if 0 < line <= len(lines) else ""


def unwrap_kernel(value: Any) -> Any:
    """Autotuner and Heuristics wrap a JITFunction in `.fn`; walk down to it."""
    for _ in range(8):
        inner = getattr(value, "fn", None)
        if inner is None or type(value).__name__ == "JITFunction":
            return value
        value = inner
    return value


def compilation_error_position(error: Any, def_line: int | None) -> tuple[int | None, int | None]:
    """Triton's CompilationError carries an AST node of the function's source with decorators
    removed, so its line 1 is the `def` line. Returns (file line, 1-based column)."""
    node = getattr(error, "node", None)
    lineno = getattr(node, "lineno", None)
    if lineno is None or def_line is None:
        return None, None
    column = getattr(node, "col_offset", None)
    return def_line + lineno - 1, None if column is None else column + 1


def json_safe_metadata(metadata: Any) -> dict[str, Any]:
    """The JSON-representable subset of a CompiledKernel's metadata namedtuple."""
    raw = metadata._asdict() if hasattr(metadata, "_asdict") else dict(metadata)
    safe = {}
    for key, value in raw.items():
        converted = _json_value(value)
        if converted is not _UNSAFE:
            safe[key] = converted
    return safe


_UNSAFE = object()


def _json_value(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value).__name__ == "GPUTarget":
        return {"backend": value.backend, "arch": value.arch, "warp_size": value.warp_size}
    if isinstance(value, (list, tuple)):
        items = [_json_value(item) for item in value]
        return _UNSAFE if any(item is _UNSAFE for item in items) else items
    if isinstance(value, dict):
        items = {str(key): _json_value(item) for key, item in value.items()}
        return _UNSAFE if any(item is _UNSAFE for item in items.values()) else items
    return _UNSAFE


def package_module_name(path: Path) -> tuple[str, Path] | None:
    """("pkg.sub.mod", the folder above pkg) for a file inside packages (folders with
    __init__.py), else None."""
    parts, folder = [path.stem], path.resolve().parent
    while (folder / "__init__.py").is_file() and folder.name.isidentifier():
        parts.insert(0, folder.name)
        folder = folder.parent
    return (".".join(parts), folder) if len(parts) > 1 and path.stem.isidentifier() else None


def open_progress_channel() -> TextIO:
    """Progress goes to the original stdout; fd 1 then joins stderr, so stray C/C++ writes to
    stdout land in the captured stderr stream."""
    progress = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    return progress
