"""Finds every @triton.jit kernel of the corpus libraries and derives a compile spec for each,
without a GPU (format: suites/samples/README.md).

Two sources, in order of preference:
- "captured": `capture_specs(fn)` runs a library wrapper on CPU tensors while JITFunction.run is
  replaced by a recorder; Triton's own binder gives the specialization (as
  agent/strata_agent/launch_capture.py does) and nothing is launched.
- "guessed": `guess_spec(jit_fn)` from the signature: annotations, defaults, names used as the
  pointer of tl.load/tl.store (-> "*fp32"), other ints -> "i32", constexprs from the first
  Autotuner config, else their default, else a power of two by name.
Run as a script (`collect.py [LIBRARY ...] [--captured drive_ops.jsonl]`) it prints one JSON line
per kernel: {"module", "kernel", "file", "line", "how", "spec"} (or "error"); a kernel that
drive_ops.py captured takes that spec ("captured"), and captured kernels the module walk does
not find (generated at run time) are added.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import os
import pkgutil
import sys
import textwrap
from typing import Any, Iterator

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "site"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "agent"))
from target_device import pretend_target_device  # noqa: E402

os.environ.setdefault("GEMS_VENDOR", "nvidia")  # flag_gems detects its device at import time

LIBRARIES = ["flag_gems", "liger_kernel", "fla"]


def unwrap(obj: Any) -> tuple[Any, list[dict]] | None:
    """The JITFunction under Autotuner/Heuristics/LibEntry wrappers, and the first autotune
    config's kwargs/options found on the way (None when obj is no kernel)."""
    from triton.runtime.jit import JITFunction
    configs: list[dict] = []
    seen = 0
    while obj is not None and seen < 8:
        seen += 1
        if isinstance(obj, JITFunction):
            return obj, configs
        first = (getattr(obj, "configs", None) or [None])[0]
        if first is not None and hasattr(first, "kwargs"):
            configs.append({"kwargs": dict(first.kwargs), "num_warps": first.num_warps,
                            "num_stages": first.num_stages})
        obj = getattr(obj, "fn", None)
    return None


def iter_modules(library: str) -> Iterator[tuple[str, Any, str | None]]:
    """(module name, module or None, import error) for every module of the library."""
    try:
        package = importlib.import_module(library)
    except Exception as error:  # noqa: BLE001 - a library that does not import is a counted row
        yield library, None, f"{type(error).__name__}: {error}".splitlines()[0]
        return
    yield library, package, None
    # walk_packages imports each subpackage to list it; one that raises (another vendor's
    # backend asking for its driver) is skipped here and counted below if it is ours to import.
    skipped: list[str] = []
    for info in pkgutil.walk_packages(package.__path__, library + ".", onerror=skipped.append):
        if ("._" in info.name and "_nvidia" not in info.name) or "triton_ascend" in info.name:
            continue  # other vendors' backends (fla's triton_ascend kernels are for Ascend)
        try:
            yield info.name, importlib.import_module(info.name), None
        except BaseException as error:  # noqa: BLE001 - SystemExit/ImportError alike
            yield info.name, None, f"{type(error).__name__}: {error}".splitlines()[0][:200]


def find_kernels(libraries: list[str]) -> tuple[list[dict], list[dict]]:
    """Distinct kernels (by file and def line) and the import errors."""
    kernels: dict[tuple, dict] = {}
    errors = []
    for library in libraries:
        for name, module, error in iter_modules(library):
            if module is None:
                errors.append({"module": name, "error": error})
                continue
            for attribute in list(vars(module).values()):
                found = unwrap(attribute)
                if found is None:
                    continue
                jit_fn, configs = found
                try:
                    file = os.path.abspath(inspect.getsourcefile(jit_fn.fn))
                    line = inspect.getsourcelines(jit_fn.fn)[1]
                except (OSError, TypeError):
                    continue
                key = (file, jit_fn.fn.__name__)
                entry = kernels.setdefault(key, {"library": library, "module": name,
                                                 "kernel": jit_fn.fn.__name__, "file": file,
                                                 "line": line, "jit": jit_fn, "configs": []})
                if configs and not entry["configs"]:
                    entry["configs"] = configs
    return list(kernels.values()), errors


# --- guess path ------------------------------------------------------------------------------
def _pointer_names(jit_fn) -> set[str]:
    """Parameters that reach the pointer argument of tl.load/tl.store/atomics (name + offsets,
    directly or through a local assigned from them) or that the kernel advances (x_ptr += ...)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(jit_fn.fn)))
    except (OSError, SyntaxError):
        return set()
    params = {p.name for p in jit_fn.params}
    derived: dict[str, set[str]] = {}  # local -> params it is computed from

    def roots(node) -> set[str]:
        out = set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                out |= {sub.id} & params
                out |= derived.get(sub.id, set())
        return out

    assigned: dict[str, list] = {}  # local -> the expressions assigned to it
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    derived.setdefault(target.id, set()).update(roots(node.value))
                    assigned.setdefault(target.id, []).append(node.value)
    pointers = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            op = node.func.attr
            if op in {"load", "store", "atomic_add", "atomic_max", "atomic_min", "atomic_cas",
                      "atomic_xchg", "make_block_ptr", "make_tensor_descriptor"} and node.args:
                pointers |= _pointer_like(node.args[0], params, derived, assigned)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) \
                and node.target.id in params and "ptr" in node.target.id.lower():
            pointers.add(node.target.id)
    return pointers


def _pointer_like(node, params: set[str], derived: dict[str, set[str]], assigned: dict | None = None,
                  depth: int = 0) -> set[str]:
    """The params in a pointer expression that are not offsets: names ending like a pointer, or,
    when none does, the leftmost name of the addition (through the locals assigned to it:
    `p_s = s + i * T * S` makes `s` the pointer, not `T`)."""
    names = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            names |= ({sub.id} & params) | derived.get(sub.id, set())
    named = {n for n in names if "ptr" in n.lower() or n in {"X", "Y", "Z", "W", "B", "A", "O"}}
    if named:
        return named
    leftmost = node
    while isinstance(leftmost, (ast.BinOp, ast.Subscript, ast.Attribute)):
        leftmost = leftmost.left if isinstance(leftmost, ast.BinOp) else leftmost.value
    if isinstance(leftmost, ast.Name):
        if leftmost.id in params:
            return {leftmost.id}
        if assigned and leftmost.id in assigned and depth < 6:
            found = set()
            for value in assigned[leftmost.id]:
                found |= _pointer_like(value, params, derived, assigned, depth + 1)
            if found:
                return found
        return {n for n in derived.get(leftmost.id, set()) if n in names and "stride" not in n.lower()}
    return set()


def _constexpr_value(name: str, default: Any) -> Any:
    if default is not inspect.Parameter.empty and default is not None:
        return getattr(default, "value", default)
    upper = name.upper()
    if upper.startswith(("IS_", "HAS_", "USE_", "EVEN", "RETURN", "SAVE", "REVERSE")):
        return False
    if upper in {"BLOCK", "BLOCK_SIZE", "BLOCK_N"} and "M" not in upper:
        return 1024 if upper != "BLOCK_N" else 64  # a 1-D row/element tile
    if "BLOCK" in upper or upper.startswith(("BL", "BT", "BK", "BV", "BM", "BN", "BS", "TILE")):
        return 64
    if upper in {"DTYPE", "OUT_DTYPE"}:
        return None
    # Window and loop-count parameters unroll static loops: a convolution's or pool's 3x3
    # window, unit strides and dilations, a pad of 1, a couple of repeats, not 16 of each.
    if upper.startswith("KERNEL") or upper in {"KH", "KW", "KD"}:
        return 3
    if any(word in upper for word in ("STRIDE", "DILATION")):
        return 1
    if "PAD" in upper:
        return 1
    if any(word in upper for word in ("REPEAT", "ITER", "NUM_STEPS")):
        return 2
    if "EPS" in upper:
        return 1e-6
    return 16  # dims like K, V, D: a power of two a tile can use


def guess_spec(jit_fn, configs: list[dict] | None = None, target: str = "sm_90") -> dict:
    pointers = _pointer_names(jit_fn)
    first = (configs or [{}])[0]
    constexpr_values = dict(first.get("kwargs", {}))
    signature, constexprs, divisible = {}, {}, []
    for param in jit_fn.params:
        name = param.name
        sig_param = param._param
        annotation = str(sig_param.annotation) if sig_param.annotation is not inspect._empty \
            else ""
        if param.is_constexpr:
            signature[name] = "constexpr"
            constexprs[name] = constexpr_values.get(name, _constexpr_value(name,
                                                                           sig_param.default))
        elif name in pointers:
            signature[name] = "*fp32"
            divisible.append(name)
        elif "float" in annotation or name.lower() in {"eps", "scale", "alpha", "beta"}:
            signature[name] = "fp32"
        elif isinstance(sig_param.default, float):
            signature[name] = "fp32"
        else:
            signature[name] = "i32"
    return {"kernel": jit_fn.fn.__name__, "signature": signature, "constexprs": constexprs,
            "divisibility_16": divisible, "equal_to_1": [],
            "options": {"num_warps": first.get("num_warps", 4),
                        "num_stages": first.get("num_stages", 3)},
            "target": target}


# --- standalone files ------------------------------------------------------------------------
def _module_level_names(tree: ast.Module) -> set[str]:
    """Names a file binds at module level: imports, assignments, defs and classes."""
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                bound |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return bound


def _import_line(name: str, value: Any) -> str | None:
    """`from M import A as name` (or `import M as name`) that yields `value` itself in a fresh
    interpreter, or None when no import path leads to it."""
    import types
    if isinstance(value, types.ModuleType):
        return f"import {value.__name__} as {name}" if value.__name__ in sys.modules else None
    # The object, or what it wraps (JITFunction.fn, a tl.constexpr's .value), names its home.
    for inner in (value, getattr(value, "fn", None), getattr(value, "value", None)):
        module_name = getattr(inner, "__module__", None)
        attribute = getattr(inner, "__name__", None)
        module = sys.modules.get(module_name or "")
        if module is None or not isinstance(attribute, str) or module_name.startswith("_gen_module"):
            continue
        candidate = getattr(module, attribute, None)
        for _ in range(8):  # the attribute may wrap the object (Autotuner, Heuristics: .fn)
            if candidate is value:
                return f"from {module_name} import {attribute} as {name}"
            candidate = getattr(candidate, "fn", None)
    return None


def standalone_imports(jit_fn) -> list[str]:
    """Imports that make the kernel's file compile on its own, as strata imports it: names its
    functions read that the file never binds but that its module had at the launch. A library
    that generates a kernel file and then adds names to the loaded module (flag_gems' pointwise
    code cache: `m.__dict__.update(scalar_fn.__globals__)`) leaves a file whose helpers read
    globals it does not define. Empty when the file binds everything it reads."""
    import builtins
    try:
        path = inspect.getsourcefile(jit_fn.fn)
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (OSError, SyntaxError, TypeError):
        return []
    bound = _module_level_names(tree)
    read = {node.id for function in tree.body if isinstance(function, ast.FunctionDef)
            for node in ast.walk(function) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    launch_globals = jit_fn.fn.__globals__
    lines = []
    for name in sorted(read - bound):
        # A builtin's name (`pow`) counts only where the module rebound it to something else.
        if name in launch_globals and launch_globals[name] is not getattr(builtins, name, object()):
            line = _import_line(name, launch_globals[name])
            if line:
                lines.append(line)
    return lines


def _retyped(spec: dict, name: str, new_type: str) -> dict:
    spec = json.loads(json.dumps(spec))
    spec["signature"][name] = new_type
    divisible = [n for n in spec["divisibility_16"] if n != name]
    if new_type.startswith("*"):
        divisible.append(name)  # a tensor's data pointer: 16-byte aligned, as torch allocates
    spec["divisibility_16"] = divisible
    return spec


def refine_guess(jit_fn, spec: dict, budget: int = 24) -> tuple[dict, str | None, int]:
    """A guessed spec that Triton's front end accepts, if one parameter type at a time gets
    there: each round retypes one run-time parameter (a pointer to i32, an int or float to a
    pointer, a float pointer to an int one) and keeps the first that generates, else the one
    whose error comes latest in the kernel (the guess got further), within `budget` front-end
    runs. Returns (spec, the remaining error or None, front-end runs)."""
    failure = frontend_failure(jit_fn, spec)
    runs = 1
    while failure and runs < budget:
        message, line = failure
        pointer_unwanted = "pointer<" in message or "cannot cast pointer" in message
        pointer_wanted = any(word in message for word in ("ptr type", "element_ty", "'dtype' object", "no attribute 'load'"))
        candidates = []
        for name, kind in spec["signature"].items():
            if kind == "constexpr":
                continue
            if kind.startswith("*"):
                if not pointer_wanted:
                    candidates.append(_retyped(spec, name, "i32"))
                if kind == "*fp32" and not pointer_unwanted:
                    candidates.append(_retyped(spec, name, "*i32"))
            else:
                if not pointer_unwanted:
                    candidates.append(_retyped(spec, name, "*fp32"))
                if kind == "fp32":
                    candidates.append(_retyped(spec, name, "i32"))
        best = None
        for candidate in candidates:
            if runs >= budget:
                break
            runs += 1
            result = frontend_failure(jit_fn, candidate)
            if result is None:
                return candidate, None, runs
            if result[1] > line and (best is None or result[1] > best[1][1]):
                best = (candidate, result)
        if best is None:
            break
        spec, failure = best
    return spec, (failure[0] if failure else None), runs


# --- capture path ----------------------------------------------------------------------------
class _NotLaunched(Exception):
    pass


def launch_values(arg_info: list[dict], spec: dict) -> dict:
    """What a rule can read of the call beside the spec, as `diagnose TASK.py` adds it: each
    run-time int's value (scalar_args: tells a stride of 1 the JIT did not fold from a real one)
    and each tensor argument's elements (tensor_elements: bounds where a gathered address can
    land). The grid is left out: the driver's shapes are small, and a grid from them would be
    judged as if it were the library's real launch."""
    scalars, elements = {}, {}
    for arg in arg_info:
        name = arg["name"]
        if "shape" in arg:
            count = 1
            for extent in arg["shape"]:
                count *= int(extent)
            elements[name] = count
        elif isinstance(arg.get("value"), int) and not isinstance(arg["value"], bool) \
                and spec["signature"].get(name, "").startswith(("i", "u")):
            scalars[name] = arg["value"]
    return {"scalar_args": scalars, "tensor_elements": elements}


def dtype_constexprs(jit_fn, bound: dict) -> dict:
    """Constexprs the call passed a Triton dtype (`X_dtype=tl.bfloat16`), written "tl.<name>",
    the form the agent's spec reads back as that dtype (strata_agent.spec.constexpr_value)."""
    import triton.language as tl
    out = {}
    for param, value in zip(jit_fn.params, bound.values()):
        value = getattr(value, "value", value)
        if param.is_constexpr and isinstance(value, tl.dtype):
            name = next((name for name, known in vars(tl).items()
                         if isinstance(known, tl.dtype) and known == value), None)
            if name:
                out[param.name] = f"tl.{name}"
    return out


def capture_specs(call, target: str = "sm_90", stop_at_first: bool = False, partial: bool = False):
    """Runs `call()` with JITFunction.run recording each launch's bound arguments through Triton's
    binder and returning None instead of launching. Returns one record per launch:
    {"kernel", "file", "line", "spec", "problems"}. Autotuner/heuristics wrappers above run() have
    already filled their constexprs when run() is reached, so the spec holds the first config's
    values. With `partial`, returns (records, error): the launches recorded before `call` raised
    (a wrapper that goes on computing with the outputs a recorded launch never wrote may fail
    after its launches) and the error's first line, or None."""
    from triton.runtime.jit import JITFunction, create_function_from_signature
    from triton.backends.nvidia.compiler import CUDABackend, CUDAOptions
    from strata_agent.launch_capture import _spec_from_specialization
    records: list[dict] = []
    original = JITFunction.run

    def record(self, *args, grid, warmup, **kwargs):
        binder = create_function_from_signature(self.signature, self.params, CUDABackend)
        bound, specialization, option_kwargs = binder(*args, **kwargs)
        fields = CUDAOptions.__dataclass_fields__
        options = {"num_warps": option_kwargs.get("num_warps", fields["num_warps"].default),
                   "num_stages": option_kwargs.get("num_stages", fields["num_stages"].default)}
        spec, arg_info, problems = _spec_from_specialization(self, bound, specialization, options,
                                                             target)
        spec["constexprs"].update(dtype_constexprs(self, bound))
        spec.update(launch_values(arg_info, spec))
        records.append({"kernel": self.fn.__name__, "file": inspect.getsourcefile(self.fn),
                        "line": inspect.getsourcelines(self.fn)[1], "spec": spec,
                        "problems": problems, "imports": standalone_imports(self), "jit": self})
        if stop_at_first:
            raise _NotLaunched()
        return None

    JITFunction.run = record
    error = None
    try:
        call()
    except _NotLaunched:
        pass
    except Exception as raised:  # noqa: BLE001 - a library op's own failure, reported with partial
        if not partial:
            raise
        error = (f"{type(raised).__name__}: {raised}".splitlines() or [""])[0][:300]
    finally:
        JITFunction.run = original
    return (records, error) if partial else records


def frontend_error(jit_fn, spec: dict) -> str | None:
    """frontend_failure's message alone."""
    failure = frontend_failure(jit_fn, spec)
    return failure[0] if failure else None


def frontend_failure(jit_fn, spec: dict) -> tuple[str, int] | None:
    """Triton's front end (source to TTIR, no GPU passes, no ptxas) on `spec`: the error a real
    launch with these arguments would raise while compiling, as ("Type: message" of the innermost
    cause, the kernel line it stopped at counted from the def), or None when it generates. A
    wrapper that accepts an input its kernel cannot compile (a bitwise op on floats) launches on
    the capture's CPU tensors all the same."""
    # MLIR's parser prints what it rejects on fd 1, where collect.py writes its JSON lines.
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        return _frontend_failure(jit_fn, spec)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _frontend_failure(jit_fn, spec: dict) -> tuple[str, int] | None:
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource, make_backend
    from triton._C.libtriton import ir
    from strata_agent.spec import compile_arguments, target_capability
    try:
        target = GPUTarget("cuda", target_capability(spec["target"]), 32)
        backend = make_backend(target)
        options = backend.parse_options(dict(spec["options"]))
        signature, constexprs, attrs = compile_arguments(spec, jit_fn.arg_names)
        context = ir.context()
        ir.load_dialects(context)
        backend.load_dialects(context)
        ASTSource(jit_fn, signature, constexprs, attrs).make_ir(
            target, options, backend.get_codegen_implementation(options), backend.get_module_map(), context)
        return None
    except Exception as error:  # noqa: BLE001 - any front-end failure is the answer
        root = error
        while root.__cause__ is not None or root.__context__ is not None:
            root = root.__cause__ or root.__context__
        line = getattr(getattr(error, "node", None), "lineno", 0) or 0
        return (f"{type(root).__name__}: {root}".splitlines() or [""])[0][:300], line


def returns_a_value(jit_fn) -> bool:
    """A @triton.jit function whose own body returns a value is a device helper, not a kernel
    (compiled on its own, Triton refuses its `tt.return` with operands)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(jit_fn.fn)))
    except (OSError, SyntaxError, TypeError):
        return False
    function = tree.body[0] if tree.body and isinstance(tree.body[0], ast.FunctionDef) else None
    if function is None:
        return False
    nested = {id(n) for sub in ast.walk(function) if sub is not function
              and isinstance(sub, (ast.FunctionDef, ast.Lambda)) for n in ast.walk(sub)}
    return any(isinstance(n, ast.Return) and n.value is not None and id(n) not in nested
               for n in ast.walk(function))


def load_captured(path: str | None) -> dict[tuple[str, str], dict]:
    """drive_ops.py's captured rows by (file, kernel name); launch variants (another dim) apart."""
    captured = {}
    for line in open(path) if path else []:
        row = json.loads(line)
        if "spec" in row and not row.get("variant"):
            captured.setdefault((os.path.abspath(row.get("original_file", row["file"])), row["kernel"]), row)
    return captured


def load_variants(path: str | None) -> list[dict]:
    """drive_ops.py's rows of a kernel launched again by another call of its op (an outer `dim`):
    a second launch of the same code, diagnosed as its own row."""
    return [row for row in map(json.loads, open(path) if path else []) if row.get("variant") and "spec" in row]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("libraries", nargs="*", default=LIBRARIES)
    parser.add_argument("--captured", help="drive_ops.py's JSON lines: their specs replace the guesses")
    parser.add_argument("--refine", action="store_true",
                        help="retype a guessed spec's parameters until Triton's front end takes it (refine_guess)")
    args = parser.parse_args(argv)
    captured = load_captured(args.captured)
    pretend_target_device()  # flag_gems asks for the device while it is imported
    kernels, errors = find_kernels(args.libraries)
    for error in errors:
        print(json.dumps({"import_error": error}))
    found = set()
    for entry in kernels:
        row = {k: entry[k] for k in ("library", "module", "kernel", "file", "line")}
        key = (entry["file"], entry["kernel"])
        found.add(key)
        if returns_a_value(entry["jit"]):
            row["helper"] = True  # a device function called from kernels: it cannot be launched
        elif key in captured:
            row["spec"], row["how"], row["op"] = captured[key]["spec"], "captured", captured[key]["op"]
            if "original_file" in captured[key]:  # a standalone copy of the file (drive_ops.py)
                row["file"], row["original_file"] = captured[key]["file"], captured[key]["original_file"]
        else:
            try:
                row["spec"], row["how"] = guess_spec(entry["jit"], entry["configs"]), "guessed"
                if args.refine:
                    row["spec"], problem, runs = refine_guess(entry["jit"], row["spec"])
                    row["frontend"] = {"runs": runs, "error": problem}
            except Exception as error:  # noqa: BLE001
                row["error"] = f"{type(error).__name__}: {error}"
        print(json.dumps(row))
    # Kernels only a call reaches: ones a library generates at run time (flag_gems' pointwise
    # code cache) or defines where the module walk does not look.
    for key, row in captured.items():
        if key not in found and row["library"] in args.libraries:
            print(json.dumps({"library": row["library"], "module": "(generated at run time)",
                              "kernel": row["kernel"], "file": row["file"], "line": row["line"],
                              "spec": row["spec"], "how": "captured", "op": row["op"]}))
    for row in variant_rows(captured, load_variants(args.captured), args.libraries):
        print(json.dumps(row))
    return 0


def variant_rows(captured: dict, variants: list[dict], libraries: list[str]) -> list[dict]:
    """The launch variants worth a diagnosis of their own: those whose spec differs from the
    default call's spec of the same kernel (the same spec would repeat its diagnosis)."""
    rows = []
    for row in variants:
        default = captured.get((os.path.abspath(row.get("original_file", row["file"])), row["kernel"]))
        if row["library"] in libraries and (default is None or default["spec"] != row["spec"]):
            rows.append({"library": row["library"], "module": "(launch variant)", "kernel": row["kernel"],
                         "file": row["file"], "line": row["line"], "spec": row["spec"], "how": "captured",
                         "op": row["op"], "variant": row["variant"]})
    return rows


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
