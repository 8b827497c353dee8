"""Captures every Triton kernel launch a task makes, as a compile spec (suites/samples/README.md).

Triton 3.6 launches through `JITFunction.run` (compiled mode) or `InterpretedFunction.run`
(TRITON_INTERPRET=1). Both are wrapped at class level while a `LaunchCapture` is active. The
specialization is computed the way the JIT computes it: the kernel's own binder
(`create_function_from_signature`, i.e. `native_specialize_impl`) gives each argument's type and
its "D" (divisible by 16) attribute, and an int equal to 1 comes back as `("constexpr", 1)`.
So `compile(spec)` rebuilds the very kernel the launch ran; on a GPU each record also carries the
digest of the kernel the JIT built, which the GPU tests compare with the agent's compile. What
the capture reads from Triton's device backend (target names, default options, that digest, the
default stream) is the NVIDIA backend's: backends/nvidia/launch.py.
"""
from __future__ import annotations

import inspect
import os
import threading
from typing import Any, Callable

from .backends.nvidia import launch as nvidia_launch

_OPTION_KEYS_NOT_IN_SPEC = {"debug", "instrumentation_mode"}
_MAX_LAUNCH_RECORDS = 2000
_state = threading.local()


def inside_triton_launch() -> bool:
    """True while a Triton launch runs on this thread (the op counter ignores its torch calls)."""
    return getattr(_state, "depth", 0) > 0


class LaunchCapture:
    """Context manager: records launches while active. `launches` keeps every launch (bounded),
    `kernels()` one entry per distinct (kernel, spec).

    With `launch=False` (capture only) no kernel runs: each launch is specialized by Triton's own
    binder and recorded, then skipped, so a task's real shapes can be captured on a machine
    without a GPU (its outputs are then meaningless). An autotuned kernel takes its first config
    after pruning, since nothing can be benchmarked."""

    def __init__(self, target: str | None = None, launch: bool = True):
        self.target = target
        self.launch = launch
        self.launches: list[dict] = []
        self.dropped = 0
        self.errors: list[str] = []
        self._originals: list[tuple[type, Callable]] = []
        self._restore: list[tuple[type, str, Callable]] = []
        self._jit_mirrors: dict[int, Any] = {}

    # --- install / remove ------------------------------------------------------------------
    def __enter__(self) -> "LaunchCapture":
        from triton.runtime.jit import JITFunction
        self._wrap(JITFunction, compiled=True)
        try:
            from triton.runtime.interpreter import InterpretedFunction
            self._wrap(InterpretedFunction, compiled=False)
        except ImportError:
            pass
        if not self.launch:
            self._first_config_only()
        else:
            self._wrap_compiled_kernel()
        return self

    def _wrap_compiled_kernel(self) -> None:
        """Launches through a CompiledKernel the caller keeps (`kernel[grid](*args)`), as
        libraries with their own kernel cache do (flag_gems' LibEntry after the first call),
        never reach JITFunction.run: record them here, through the same binder."""
        from triton.compiler.compiler import CompiledKernel
        original = CompiledKernel.__getitem__
        capture = self

        def getitem(kernel, grid):
            runner = original(kernel, grid)
            if getattr(_state, "depth", 0) > 0:
                return runner  # inside JITFunction.run: already recorded there

            def recorded(*args, **kwargs):
                capture._record_direct(kernel, grid, args)
                _state.depth = getattr(_state, "depth", 0) + 1
                try:
                    return runner(*args, **kwargs)
                finally:
                    _state.depth -= 1
            return recorded

        CompiledKernel.__getitem__ = getitem
        self._restore.append((CompiledKernel, "__getitem__", original))

    def _record_direct(self, kernel: Any, grid: Any, args: tuple) -> None:
        try:
            record = self._describe(kernel.src.fn, args, {}, grid, True)
            metadata = kernel.metadata  # the compiled options, not the binder's defaults
            record["spec"]["options"].update(num_warps=metadata.num_warps,
                                             num_stages=metadata.num_stages)
            record.update(num_warps=metadata.num_warps, num_stages=metadata.num_stages)
        except Exception as error:  # a description bug must not break the launch
            self.errors.append(f"{type(error).__name__}: {error}")
            record = {"kernel": getattr(kernel, "name", "?"), "source_path": None, "line": None,
                      "grid": [int(v) for v in tuple(grid) + (1,) * (3 - len(tuple(grid)))],
                      "args": [], "spec": {}, "num_warps": None, "num_stages": None,
                      "problems": ["launched through a kept CompiledKernel; not described"],
                      **_stream_info(True)}
        record["mode"] = "compiled_direct"
        self._finish(record, kernel)

    def _first_config_only(self) -> None:
        from triton.runtime.autotuner import Autotuner
        original = Autotuner.run

        def run(tuner, *args, **kwargs):
            tuner.nargs = dict(zip(tuner.arg_names, args))
            configs = tuner.configs
            tuner.configs = list(tuner.prune_configs(kwargs))[:1] or configs[:1]
            try:
                return original(tuner, *args, **kwargs)
            finally:
                tuner.configs = configs

        self._originals.append((Autotuner, original))
        Autotuner.run = run
        # Tuners that override run() with their own search (flag_gems' LibTuner) still time
        # each config through _bench: equal timings make them keep their first config too.
        original_bench = Autotuner._bench
        Autotuner._bench = lambda tuner, *args, config, **meta: [1.0, 1.0, 1.0]
        self._restore.append((Autotuner, "_bench", original_bench))

    def __exit__(self, *exc: Any) -> None:
        for cls, original in reversed(self._originals):
            cls.run = original
        self._originals.clear()
        for cls, name, original in reversed(self._restore):
            setattr(cls, name, original)
        self._restore.clear()

    def _wrap(self, cls: type, compiled: bool) -> None:
        original = cls.run
        capture = self

        def run(fn_self, *args, grid, warmup, **kwargs):
            record = None
            if not warmup:
                try:
                    record = capture._describe(fn_self, args, kwargs, grid, compiled)
                except Exception as error:  # a description bug must not break the launch
                    capture.errors.append(f"{type(error).__name__}: {error}")
            if not capture.launch:
                if record is not None:
                    capture._finish(record, None)
                return None
            _state.depth = getattr(_state, "depth", 0) + 1
            try:
                kernel = original(fn_self, *args, grid=grid, warmup=warmup, **kwargs)
            finally:
                _state.depth -= 1
            if record is not None:
                capture._finish(record, kernel)
            return kernel

        self._originals.append((cls, original))
        cls.run = run

    # --- describing one launch -------------------------------------------------------------
    def _describe(self, fn_self, args, kwargs, grid, compiled: bool) -> dict:
        jit_fn = fn_self if compiled else self._jit_mirror(fn_self)
        on_device = compiled and self.launch  # capture only: no driver, Triton's default options
        backend_cls, backend, target = _backend(jit_fn, on_device, self.target)
        from triton.runtime.jit import create_function_from_signature
        binder = create_function_from_signature(jit_fn.signature, jit_fn.params, backend_cls)
        bound_args, specialization, option_kwargs = binder(*args, **kwargs)
        options = _options(backend, option_kwargs, kwargs)
        spec, arg_info, problems = _spec_from_specialization(jit_fn, bound_args, specialization,
                                                             options, target)
        if callable(grid):
            grid = grid(bound_args)
        grid = [int(value) for value in tuple(grid) + (1,) * (3 - len(tuple(grid)))]
        source_file, line = _where(jit_fn.fn)
        return {"kernel": jit_fn.fn.__name__, "source_path": source_file, "line": line,
                "grid": grid, "args": arg_info, "spec": spec, "problems": problems,
                "num_warps": spec["options"]["num_warps"],
                "num_stages": spec["options"]["num_stages"],
                "mode": ("compiled" if on_device else "captured") if compiled else "interpreter",
                **_stream_info(on_device)}

    def _jit_mirror(self, interpreted_fn):
        """A JITFunction over the same Python function, for its binder (no device needed)."""
        key = id(interpreted_fn.fn)
        if key not in self._jit_mirrors:
            from triton.runtime.jit import JITFunction
            self._jit_mirrors[key] = JITFunction(interpreted_fn.fn)
        return self._jit_mirrors[key]

    def _finish(self, record: dict, kernel: Any) -> None:
        record.update(nvidia_launch.binary_digest(getattr(kernel, "asm", None)))
        metadata = getattr(kernel, "metadata", None)
        if metadata is not None:
            record["compiled"] = {"name": getattr(metadata, "name", None),
                                  "shared": getattr(metadata, "shared", None),
                                  "num_warps": getattr(metadata, "num_warps", None),
                                  "num_stages": getattr(metadata, "num_stages", None)}
        if len(self.launches) < _MAX_LAUNCH_RECORDS:
            self.launches.append(record)
        else:
            self.dropped += 1

    def kernels(self) -> list[dict]:
        """Distinct (kernel, spec) pairs in first-launch order, with a launch count each."""
        distinct: dict[str, dict] = {}
        for launch in self.launches:
            key = repr((launch["source_path"], launch["kernel"], sorted_items(launch["spec"])))
            if key in distinct:
                distinct[key]["launches"] += 1
            else:
                distinct[key] = {**launch, "launches": 1}
        return list(distinct.values())


def sorted_items(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((key, sorted_items(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(sorted_items(item) for item in value)
    return value


def _backend(jit_fn, compiled: bool, target: str | None):
    if compiled:
        from triton.runtime.driver import driver
        device = driver.active.get_current_device()
        _, _, gpu_target, backend, _ = jit_fn.device_caches[device]
        return type(backend), backend, target or nvidia_launch.target_name(gpu_target)
    return (nvidia_launch.capture_only_backend(), None,
            target or nvidia_launch.CAPTURE_ONLY_TARGET)


def _options(backend, option_kwargs: dict, user_kwargs: dict) -> dict:
    """num_warps / num_stages always, plus every other launch option the caller gave."""
    from triton import knobs
    if backend is not None:
        given = dict(user_kwargs)
        given["debug"] = given.get("debug") or knobs.runtime.debug
        given["instrumentation_mode"] = knobs.compilation.instrumentation_mode
        parsed = backend.parse_options(given).__dict__
    else:
        parsed = {**nvidia_launch.default_options(), **option_kwargs}
    options = {"num_warps": parsed["num_warps"], "num_stages": parsed["num_stages"]}
    for key, value in option_kwargs.items():
        if key not in _OPTION_KEYS_NOT_IN_SPEC and key in parsed:
            options[key] = parsed[key] if backend is not None else value
    if parsed.get("debug"):
        options["debug"] = True
    return options


def _spec_from_specialization(jit_fn, bound_args: dict, specialization: list, options: dict,
                              target: str) -> tuple[dict, list[dict], list[str]]:
    from triton.backends.compiler import BaseBackend
    signature, constexprs, divisible, equal_to_1 = {}, {}, [], []
    arg_info, problems = [], []
    for param, (type_name, attribute), value in zip(jit_fn.params, specialization,
                                                      bound_args.values()):
        name = param.name
        arg_info.append(_describe_argument(name, type_name, value))
        if param.is_constexpr:
            signature[name] = "constexpr"
            constexprs[name] = _json_value(value)
        elif type_name == "constexpr":
            if value is None:
                problems.append(f"'{name}' was passed None; the spec format cannot express a "
                                "None runtime argument")
                signature[name] = "constexpr"
                constexprs[name] = None
            else:  # the JIT folds an int equal to 1 into a constexpr
                signature[name] = "i64" if isinstance(value, int) and value > 2**31 else "i32"
                equal_to_1.append(name)
        elif isinstance(type_name, tuple) or isinstance(value, tuple):
            problems.append(f"'{name}' is a tuple argument; not expressible in a spec")
            signature[name] = str(type_name)
        else:
            signature[name] = type_name
            if isinstance(attribute, str) and ["tt.divisibility", 16] in \
                    BaseBackend.parse_attr(attribute):
                divisible.append(name)
    spec = {"kernel": jit_fn.fn.__name__, "signature": signature, "constexprs": constexprs,
            "divisibility_16": divisible, "equal_to_1": equal_to_1, "options": options,
            "target": target}
    return spec, arg_info, problems


def _describe_argument(name: str, type_name: Any, value: Any) -> dict:
    info: dict[str, Any] = {"name": name, "type": str(type_name)}
    if hasattr(value, "data_ptr") and hasattr(value, "shape"):
        info.update({"shape": list(value.shape), "dtype": str(value.dtype).replace("torch.", ""),
                     "stride": list(value.stride()), "device": str(value.device)})
    elif isinstance(value, (bool, int, float, str)) or value is None:
        info["value"] = value
    return info


def _json_value(value: Any) -> Any:
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    inner = getattr(value, "value", None)  # tl.constexpr wrapper
    if isinstance(inner, (bool, int, float, str)):
        return inner
    return str(value)


def _where(fn: Callable) -> tuple[str | None, int | None]:
    try:
        source_file = os.path.abspath(inspect.getsourcefile(fn) or "")
        _, line = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None, None
    # getsourcelines starts at the first decorator; point at the `def` line, as `ast` does.
    try:
        lines, _ = inspect.getsourcelines(fn)
        offset = next(i for i, text in enumerate(lines) if text.lstrip().startswith("def "))
    except (OSError, StopIteration):
        offset = 0
    return source_file, line + offset


def _stream_info(compiled: bool) -> dict:
    """The stream the launch goes to and whether it is the device's default stream."""
    if not compiled:
        return {"stream": None, "default_stream": True}
    from triton.runtime.driver import driver
    device = driver.active.get_current_device()
    stream = driver.active.get_current_stream(device)
    default = nvidia_launch.default_stream_handle(device)
    return {"stream": int(stream), "default_stream": int(stream) == int(default)}
