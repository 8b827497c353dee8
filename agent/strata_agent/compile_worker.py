"""The compile worker: one Triton compile in its own process (run by compile_runner).

Usage: python -m strata_agent.compile_worker REQUEST.json
       python -m strata_agent.compile_worker --spare [--arch 90] [--preload=torch]

A spare (warm_worker.py) warms up first and then waits on stdin for the request's handover.

The request names source_path, kernel, a normalized spec, work_dir and result_path. The worker
writes the stage artifacts into work_dir and a result file: {"ok": true, "metadata", "artifacts"}
or {"ok": false, "error": {"code", "kind", "message", "file", "line", "kernel", ...}}.

Channels: stdout carries progress lines ({"progress": "..."}) for the parent. C++ output that
would go to fd 1 is sent to stderr instead, which the parent captures whole: the MLIR pass dumps,
remarks, and the stage markers written here, all in the order they happened.
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import sys
import traceback
from pathlib import Path
from typing import Any, TextIO

from .ast_json import find_function, parse_source_file
from .errors import BAD_INPUT, COMPILE_ERROR, StrataError, bad_input
from .spec import SpecWhere, check_against_kernel, compile_arguments, target_capability

STAGE_MARKER = "// -----// STRATA STAGE {stage} //----- //"
TEXT_STAGES = ("ttir", "ttgir", "llir", "ptx")


class Worker:
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

    def run(self) -> dict[str, Any]:
        tree = parse_source_file(self.source_path, self.kernel)
        definition = find_function(tree, self.kernel)
        self.def_line = definition.lineno if definition else None
        self.report("importing kernel module")
        module = self.import_module()
        jit_function = self.find_kernel(module)
        params = [(param.name, bool(param.is_constexpr)) for param in jit_function.params]
        check_against_kernel(self.spec, params, {**self.where(self.def_line),
                                                 "spec_file": self.spec_where.spec_path})
        compiled, ptxas_log = self.compile(jit_function)
        return {"ok": True, "artifacts": self.write_artifacts(compiled, ptxas_log),
                "metadata": json_safe_metadata(compiled.metadata)}

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

    def compile(self, jit_function: Any) -> tuple[Any, str]:
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource

        signature, constexprs, attrs = compile_arguments(self.spec, jit_function.arg_names)
        source = ASTSource(jit_function, signature, constexprs, attrs)
        target = GPUTarget("cuda", target_capability(self.spec["target"]), 32)
        self.check_option_names(target)
        self.report("compiling", target=self.spec["target"])
        captured_stdout = io.StringIO()
        with mark_stages(self.report, self.save_stage), \
                contextlib.redirect_stdout(captured_stdout):
            try:
                compiled = triton.compile(source, target=target, options=self.spec["options"])
            except Exception as error:
                raise self.compile_failure(error) from error
        return compiled, captured_stdout.getvalue()

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
            line, column = compilation_error_position(error, self.def_line)
            misuse = self.string_constexpr_at(line)
            if misuse:
                return self.string_constexpr_error(misuse, line, error)
            return StrataError(COMPILE_ERROR, "frontend_error", message, **self.where(line),
                               column=column, error_type=type(error).__name__)
        if type(error).__name__ == "PTXASError":
            return self.ptxas_failure(message)
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

    def ptxas_failure(self, message: str) -> StrataError:
        """ptxas names a PTX line; the `.loc` before it names the Python line."""
        match = re.search(r"\.ptx, line (\d+); error", message)
        ptx_path = self.work_dir / f"{self.kernel}.ptx"
        file, line, ptx_line = self.source_path, None, None
        if match and ptx_path.is_file():
            ptx_line = int(match.group(1))
            file, line = ptx_source_location(ptx_path.read_text(encoding="utf-8"), ptx_line,
                                             self.source_path)
        first_error = next((text.strip() for text in message.splitlines()
                            if "error" in text and text.startswith("ptxas")), message)
        return StrataError(COMPILE_ERROR, "ptxas_error", f"ptxas rejected the PTX: {first_error}",
                           file=file, line=line, kernel=self.kernel, ptx_line=ptx_line,
                           ptxas_output=message)

    def save_stage(self, stage: str, output: Any) -> None:
        """Each stage's output is written as soon as it exists, so a later failure keeps it."""
        if stage in TEXT_STAGES and isinstance(output, str):
            self.write(f"{self.kernel}.{stage}", output)
        elif stage == "cubin" and isinstance(output, bytes):
            self.write(f"{self.kernel}.cubin", output)

    def write_artifacts(self, compiled: Any, ptxas_log: str) -> dict[str, str]:
        written = {}
        for stage in (*TEXT_STAGES, "cubin"):
            if stage in compiled.asm:
                self.save_stage(stage, compiled.asm[stage])
                written[stage] = str(self.work_dir / f"{self.kernel}.{stage}")
        written["ptxas_log"] = self.write("ptxas.log", ptxas_log)
        return written

    def write(self, file_name: str, content: str | bytes) -> str:
        path = self.work_dir / file_name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return str(path)


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


_PTX_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]+)"')
_PTX_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+")


def ptx_source_location(ptx: str, ptx_line: int, default_file: str) -> tuple[str, int | None]:
    """The source file and line of the last `.loc` at or before PTX line `ptx_line` (1-based)."""
    lines = ptx.splitlines()
    files = {match.group(1): match.group(2) for text in lines if (match := _PTX_FILE.match(text))}
    for text in reversed(lines[:ptx_line]):
        if match := _PTX_LOC.match(text):
            return files.get(match.group(1), default_file), int(match.group(2))
    return default_file, None


@contextlib.contextmanager
def mark_stages(report: Any, save: Any):
    """Writes a marker to stderr as each backend stage starts, so pass dumps can be assigned to
    the pipeline (ttir, ttgir, llir, ...) that ran them. fd 2 is unbuffered on both the C++ and
    this side, so the marker lands exactly between the dumps."""
    import triton.compiler.compiler as compiler_module
    original_make_backend = compiler_module.make_backend

    def make_backend(target):
        backend = original_make_backend(target)
        original_add_stages = backend.add_stages

        def add_stages(stages, options, language):
            original_add_stages(stages, options, language)
            for stage_name in list(stages):
                stages[stage_name] = _marked(stage_name, stages[stage_name], report, save)
        backend.add_stages = add_stages
        return backend

    compiler_module.make_backend = make_backend
    try:
        yield
    finally:
        compiler_module.make_backend = original_make_backend


def _marked(stage_name: str, stage_function: Any, report: Any, save: Any) -> Any:
    def run_stage(source, metadata):
        sys.stderr.flush()
        os.write(2, (STAGE_MARKER.format(stage=stage_name) + "\n").encode())
        report(f"running stage {stage_name}", stage=stage_name)
        output = stage_function(source, metadata)
        save(stage_name, output)  # text and binary outputs; MLIR modules wait for compiled.asm
        return output
    return run_stage


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


def main(argv: list[str]) -> int:
    progress = open_progress_channel()
    if argv[1:2] == ["--spare"]:
        from .spare import serve_as_spare
        request_path = serve_as_spare(argv[2:], progress)
        if request_path is None:
            return 0          # the agent went away, or dropped this spare, before a request
    else:
        request_path = argv[1]
    return compile_request(request_path, progress)


def compile_request(request_path: str, progress: TextIO) -> int:
    request = json.loads(Path(request_path).read_text(encoding="utf-8"))
    worker = Worker(request, progress)
    try:
        result = worker.run()
    except StrataError as error:
        result = {"ok": False, "error": {"code": error.code, **error.data}}
    except Exception as error:  # a bug in the worker itself: report it, never a bare crash
        traceback.print_exc()
        result = {"ok": False, "error": {"code": COMPILE_ERROR, "kind": "internal_error",
                                         "message": f"{type(error).__name__}: {error}",
                                         **worker.where()}}
    result["heavy_modules"] = heavy_modules_loaded()
    Path(request["result_path"]).write_text(json.dumps(result), encoding="utf-8")
    return 0


def heavy_modules_loaded() -> list[str]:
    """The preloadable modules this process has imported, so the agent's next spares can import
    them ahead of the request."""
    from .spare import PRELOADABLE_MODULES
    return [name for name in PRELOADABLE_MODULES if name in sys.modules]


if __name__ == "__main__":
    sys.exit(main(sys.argv))
