"""Launch capture under triton-ascend 3.2 (runs in the Ascend task worker).

strata_agent.launch_capture reads Triton 3.6's binder; triton-ascend 3.2.0 is a Triton 3.2 fork
whose `JITFunction.run` binds differently and whose interpreter launches through
`InterpretedFunction.__getitem__` (a GridExecutor), not a `run` method. This capture keeps the
record format and bookkeeping of LaunchCapture (`launches`, `kernels()`, `errors`, capture-only
mode) and describes each launch from the arguments themselves, as triton 3.2's JIT specializes
them (`triton.runtime.jit.mangle_type` for the types, `AttrsDescriptor`'s divisible-by-16 and
equal-to-1 tests for the attributes), into a spec an Ascend `compile` rebuilds (target
`ascend910_95` or `ascend910b3`).

Checked on this CPU host under triton-ascend (capture-only and the interpreter); a compiled
launch on an NPU was never seen here.
"""
from __future__ import annotations

import inspect
from typing import Any

from ...launch_capture import LaunchCapture, _json_value, _state, _where


class AscendLaunchCapture(LaunchCapture):
    def __enter__(self) -> "AscendLaunchCapture":
        from triton.runtime.jit import JITFunction
        self._wrap(JITFunction, compiled=True)
        self._wrap_interpreter()
        if not self.launch:
            self._first_config_only()
        return self

    def _first_config_only(self) -> None:
        """Capture only: an autotuned kernel takes its first config (nothing can be timed)."""
        from triton.runtime.autotuner import Autotuner
        original = Autotuner.run

        def run(tuner, *args, **kwargs):
            configs = tuner.configs
            tuner.configs = configs[:1]
            try:
                return original(tuner, *args, **kwargs)
            finally:
                tuner.configs = configs

        self._originals.append((Autotuner, original))
        Autotuner.run = run

    def _wrap_interpreter(self) -> None:
        try:
            from triton.runtime.interpreter import InterpretedFunction
        except ImportError:
            return
        original = InterpretedFunction.__getitem__
        capture = self

        def getitem(fn_self, grid):
            executor = original(fn_self, grid)

            def recorded(*args, **kwargs):
                record = None
                try:
                    record = capture._describe(fn_self, args, kwargs, grid, False)
                except Exception as error:   # a description bug must not break the launch
                    capture.errors.append(f"{type(error).__name__}: {error}")
                if not capture.launch:
                    if record is not None:
                        capture._finish(record, None)
                    return None
                _state.depth = getattr(_state, "depth", 0) + 1
                try:
                    return executor(*args, **kwargs)
                finally:
                    _state.depth -= 1
                    if record is not None:
                        capture._finish(record, None)
            return recorded

        InterpretedFunction.__getitem__ = getitem
        self._restore.append((InterpretedFunction, "__getitem__", original))

    def _describe(self, fn_self, args, kwargs, grid, compiled: bool) -> dict:
        python_fn = fn_self.fn
        spec, arg_info, problems, bound = describe_launch(python_fn, _params_of(fn_self), args,
                                                          kwargs, self.target)
        if callable(grid):
            grid = grid(bound)
        grid = [int(value) for value in tuple(grid) + (1,) * (3 - len(tuple(grid)))]
        source_file, line = _where(python_fn)
        mode = "interpreter" if not compiled else ("compiled" if self.launch else "captured")
        return {"kernel": python_fn.__name__, "source_path": source_file, "line": line,
                "grid": grid, "args": arg_info, "spec": spec, "problems": problems,
                "num_warps": spec["options"].get("num_warps"),
                "num_stages": spec["options"].get("num_stages"), "mode": mode,
                "stream": None, "default_stream": True}


def _params_of(fn_self) -> dict[str, tuple[bool, bool]]:
    """{name: (is_constexpr, do_not_specialize)}; an interpreted function has no KernelParams."""
    params = getattr(fn_self, "params", None)
    if params is not None:
        return {param.name: (bool(param.is_constexpr), bool(param.do_not_specialize))
                for param in params}
    from triton.runtime.jit import JITFunction
    mirror = JITFunction(fn_self.fn)
    return {param.name: (bool(param.is_constexpr), bool(param.do_not_specialize))
            for param in mirror.params}


def describe_launch(python_fn, params: dict[str, tuple[bool, bool]], args: tuple, kwargs: dict,
                    target: str | None) -> tuple[dict, list[dict], list[str], dict]:
    """(spec, argument descriptions, problems, bound arguments) of one launch."""
    from triton.backends.compiler import AttrsDescriptor
    from triton.runtime.jit import mangle_type
    from ...launch_capture import _describe_argument
    names = list(inspect.signature(python_fn).parameters)
    arguments = {key: value for key, value in kwargs.items() if key in names}
    options = {key: value for key, value in kwargs.items()
               if key not in names and key not in ("grid", "warmup", "debug", "stream")}
    bound = inspect.signature(python_fn).bind_partial(*args, **arguments)
    bound.apply_defaults()
    signature, constexprs, divisible, equal_to_1 = {}, {}, [], []
    arg_info, problems = [], []
    for name, value in bound.arguments.items():
        is_constexpr, no_specialize = params.get(name, (False, False))
        type_name = "constexpr" if is_constexpr else mangle_type(value)
        arg_info.append(_describe_argument(name, type_name, value))
        if is_constexpr:
            signature[name] = "constexpr"
            constexprs[name] = _json_value(value)
        elif value is None:
            problems.append(f"'{name}' was passed None; the spec format cannot express a None "
                            "runtime argument")
            signature[name] = "constexpr"
            constexprs[name] = None
        else:
            signature[name] = type_name
            if no_specialize:
                continue
            if isinstance(value, int) and not isinstance(value, bool) \
                    and AttrsDescriptor.is_equal_to_1(value):
                equal_to_1.append(name)
            elif AttrsDescriptor.is_divisible_by_16(value):
                divisible.append(name)
    missing = [name for name in names if name not in bound.arguments]
    if missing:
        problems.append(f"no value for {', '.join(missing)}")
    # Launch keywords that are not kernel parameters are NPUOptions (multibuffer, ...); none is
    # invented: triton-ascend ignores num_warps and num_stages (ASCEND-NOTES.md section 2).
    spec_options = {key: _json_value(value) for key, value in options.items()}
    spec = {"kernel": python_fn.__name__, "signature": signature, "constexprs": constexprs,
            "divisibility_16": divisible, "equal_to_1": equal_to_1, "options": spec_options,
            "target": target or "ascend910_95"}
    return spec, arg_info, problems, dict(bound.arguments)
