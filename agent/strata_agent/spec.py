"""Compile specs (suites/samples/README.md): structural checks here, kernel checks in the worker.

Nothing here imports triton, so the server can reject a bad spec without starting a worker.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from . import SUPPORTED_TARGETS
from .errors import bad_input

_SCALAR_TYPES = {"i1", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "u64",
                 "fp8e4nv", "fp8e5", "fp8e4b15", "fp8e4b8", "fp8e5b16",
                 "fp16", "bf16", "fp32", "fp64"}
_POINTER = re.compile(r"^\*k?(?P<elem>[a-z0-9]+)$")
_TENSOR_DESCRIPTOR = re.compile(r"^tensordesc<[a-z0-9]+\[[0-9, ]+\]>$")
_INT_TYPES = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"}


def is_known_type(type_name: str) -> bool:
    if type_name == "constexpr" or type_name in _SCALAR_TYPES:
        return True
    pointer = _POINTER.match(type_name)
    if pointer:
        return pointer.group("elem") in _SCALAR_TYPES
    return bool(_TENSOR_DESCRIPTOR.match(type_name))


class SpecWhere:
    """Where spec errors point: the spec file the client read (`spec_path`; None for a spec
    given inline) at the line of the offending key, the key as a dotted JSON path, and the
    kernel file as context."""

    def __init__(self, source_path: str, spec_path: str | None, kernel: str | None):
        self.source_path = source_path
        self.spec_path = spec_path
        self.kernel = kernel
        self._text: str | None = None

    def error(self, message: str, key: str | None = None, kind: str = "bad_spec",
              **extra: Any):
        return bad_input(kind, message, file=self.spec_path, line=self.line_of(key),
                         kernel=self.kernel, spec_key=key, kernel_file=self.source_path, **extra)

    def line_of(self, key: str | None) -> int | None:
        """The 1-based line where the dotted key is first written in the spec file."""
        if not key or not self.spec_path:
            return None
        if self._text is None:
            try:
                with open(self.spec_path, encoding="utf-8", errors="replace") as handle:
                    self._text = handle.read()
            except OSError:
                self._text = ""
        at = 0
        for part in key.split("."):
            found = self._text.find(f'"{part.split("[")[0]}"', at)
            if found < 0:
                return None
            at = found
        return self._text.count("\n", 0, at) + 1


def normalize_spec(spec: Any, kernel: str | None, target: str | None, source_path: str,
                   spec_path: str | None = None,
                   supported_targets: Sequence[str] = SUPPORTED_TARGETS,
                   default_target: str = "sm_90") -> dict:
    """Checks a spec's shape and value types and fills defaults; returns a new dict. Raises
    bad_input naming the spec file (when given) and the key. `supported_targets` and
    `default_target` are the calling backend's (NVIDIA's by default)."""
    where = SpecWhere(source_path, spec_path, kernel)
    if not isinstance(spec, dict):
        raise where.error("spec must be a JSON object")
    spec_kernel = spec.get("kernel")
    if kernel and spec_kernel and kernel != spec_kernel:
        raise where.error(f"request names kernel '{kernel}' but the spec is for "
                          f"'{spec_kernel}'", "kernel")
    kernel = kernel or spec_kernel
    where.kernel = kernel
    if not isinstance(kernel, str) or not kernel:
        raise where.error("no kernel name: give 'kernel' in the request or the spec", "kernel")

    signature = spec.get("signature")
    if not isinstance(signature, dict) or not signature:
        raise where.error("spec.signature must be a non-empty object of parameter -> type",
                          "signature")
    for name, type_name in signature.items():
        if not isinstance(type_name, str) or not is_known_type(type_name):
            raise where.error(f"parameter '{name}': unknown type {type_name!r}",
                              f"signature.{name}")

    constexprs = _dict_field(spec, "constexprs", where)
    divisible = _name_list_field(spec, "divisibility_16", signature, where)
    equal_to_1 = _name_list_field(spec, "equal_to_1", signature, where)
    options = _dict_field(spec, "options", where)
    _check_constexprs(signature, constexprs, where)
    _check_option_types(options, where)
    for key, names in (("divisibility_16", divisible), ("equal_to_1", equal_to_1)):
        for name in names:
            if signature[name] == "constexpr":
                raise where.error(f"'{name}' is a constexpr; it cannot also be listed in "
                                  "divisibility_16 or equal_to_1", key)
    for name in equal_to_1:
        if signature[name] not in _INT_TYPES:
            raise where.error(f"equal_to_1 lists '{name}' of type {signature[name]}; only int "
                              "parameters can equal 1", "equal_to_1")

    target = target or spec.get("target") or default_target
    if target not in supported_targets:
        raise where.error(f"unsupported target '{target}'; supported: "
                          f"{', '.join(supported_targets)}", "target", kind="bad_target")
    return {"kernel": kernel, "signature": dict(signature), "constexprs": dict(constexprs),
            "divisibility_16": divisible, "equal_to_1": equal_to_1, "options": dict(options),
            "target": target}


def describe_value(value: Any) -> str:
    """How a wrong value is named in an error: what the user wrote, in JSON terms."""
    if isinstance(value, str):
        return f'the string "{value[:60]}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return repr(value)


def _dict_field(spec: dict, key: str, where: SpecWhere) -> dict:
    value = spec.get(key, {})
    if not isinstance(value, dict):
        raise where.error(f"spec.{key} must be an object, not {describe_value(value)}", key)
    return value


def _name_list_field(spec: dict, key: str, signature: dict, where: SpecWhere) -> list[str]:
    value = spec.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise where.error(f"spec.{key} must be a list of parameter names", key)
    unknown = [name for name in value if name not in signature]
    if unknown:
        raise where.error(f"spec.{key} names parameters not in the signature: "
                          f"{', '.join(unknown)}", key)
    return list(value)


def _check_constexprs(signature: dict, constexprs: dict, where: SpecWhere) -> None:
    for name, value in constexprs.items():
        key = f"constexprs.{name}"
        if name not in signature:
            raise where.error(f"spec.constexprs gives '{name}', which is not in the "
                              "signature", key)
        if signature[name] != "constexpr":
            raise where.error(f"spec.constexprs gives a value for '{name}', whose "
                              f"signature type is {signature[name]}, not constexpr", key)
        if isinstance(value, (list, dict)):
            raise where.error(f"spec.constexprs.{name} must be a number, a string, true/false "
                              f"or null, not {describe_value(value)}", key)
    missing = [name for name, type_name in signature.items()
               if type_name == "constexpr" and name not in constexprs]
    if missing:
        raise where.error(f"no value in spec.constexprs for constexpr parameter(s): "
                          f"{', '.join(missing)}", "constexprs")


# Options every Triton backend takes: (minimum, example, may be null). Others go to the backend,
# whose option list the worker checks the names against.
_INTEGER_OPTIONS = {"num_warps": (1, 8, False), "num_stages": (0, 3, False),
                    "num_ctas": (1, 1, False), "maxnreg": (1, 128, True)}
_BOOL_OPTIONS = ("enable_fp_fusion",)


def _check_option_types(options: dict, where: SpecWhere) -> None:
    for name, (minimum, example, nullable) in _INTEGER_OPTIONS.items():
        if name not in options or (nullable and options[name] is None):
            continue
        value = options[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise where.error(f"spec.options.{name} must be an integer of at least {minimum} "
                              f"(e.g. {example}), not {describe_value(value)}",
                              f"options.{name}")
    for name in _BOOL_OPTIONS:
        if name in options and not isinstance(options[name], bool):
            raise where.error(f"spec.options.{name} must be true or false, not "
                              f"{describe_value(options[name])}", f"options.{name}")


def target_capability(target: str) -> int:
    """'sm_90' -> 90."""
    return int(target.removeprefix("sm_"))


def check_against_kernel(spec: dict, params: list[tuple[str, bool]], where: dict) -> None:
    """Compares the spec's signature with the kernel's (name, is_constexpr) parameters."""
    signature = spec["signature"]
    names = [name for name, _ in params]
    missing = [name for name in names if name not in signature]
    extra = [name for name in signature if name not in names]
    problems = []
    if missing:
        problems.append(f"missing from the spec signature: {', '.join(missing)}")
    if extra:
        problems.append(f"not parameters of the kernel: {', '.join(extra)}")
    for name, is_constexpr in params:
        given = signature.get(name)
        if given is None:
            continue
        if given == "constexpr" and not is_constexpr:
            problems.append(f"'{name}' is given a constexpr value but the kernel does not declare "
                            "it tl.constexpr")
        elif given != "constexpr" and is_constexpr:
            problems.append(f"'{name}' is tl.constexpr in the kernel but the spec gives it "
                            f"type {given} and no value")
    if problems:
        raise bad_input("signature_mismatch", "spec does not match the kernel signature: "
                        + "; ".join(problems), **where)


def constexpr_value(value: Any) -> Any:
    """A spec constexpr as the kernel receives it: the string "tl.<name>" of a Triton dtype
    ("tl.bfloat16", as a launch passes `X_dtype=tl.bfloat16`) is that dtype; anything else is
    itself."""
    if isinstance(value, str) and value.startswith("tl.") and value[3:].isidentifier():
        import triton.language as tl
        dtype = getattr(tl, value[3:], None)
        if isinstance(dtype, tl.dtype):
            return dtype
    return value


def compile_arguments(spec: dict, arg_names: list[str]) -> tuple[dict, dict, dict]:
    """The (signature, constexprs, attrs) triple for triton's ASTSource, as the JIT builds it."""
    signature = dict(spec["signature"])
    constexprs = {name: constexpr_value(value) for name, value in spec["constexprs"].items()}
    for name in spec["equal_to_1"]:
        signature[name] = "constexpr"
        constexprs[name] = 1
    attrs = {(arg_names.index(name),): [["tt.divisibility", 16]]
             for name in spec["divisibility_16"]}
    # ASTSource wants the signature in parameter order.
    ordered = {name: signature[name] for name in arg_names}
    return ordered, constexprs, attrs
