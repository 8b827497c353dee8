"""Compile specs (suites/samples/README.md): structural checks here, kernel checks in the worker.

Nothing here imports triton, so the server can reject a bad spec without starting a worker.
"""
from __future__ import annotations

import re
from typing import Any

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


def normalize_spec(spec: Any, kernel: str | None, target: str | None, source_path: str) -> dict:
    """Checks a spec's shape and fills defaults; returns a new dict. Raises bad_input."""
    where = {"file": source_path, "kernel": kernel}
    if not isinstance(spec, dict):
        raise bad_input("bad_spec", "spec must be a JSON object", **where)
    spec_kernel = spec.get("kernel")
    if kernel and spec_kernel and kernel != spec_kernel:
        raise bad_input("bad_spec", f"request names kernel '{kernel}' but the spec is for "
                        f"'{spec_kernel}'", **where)
    kernel = kernel or spec_kernel
    where["kernel"] = kernel
    if not isinstance(kernel, str) or not kernel:
        raise bad_input("bad_spec", "no kernel name: give 'kernel' in the request or the spec",
                        **where)

    signature = spec.get("signature")
    if not isinstance(signature, dict) or not signature:
        raise bad_input("bad_spec", "spec.signature must be a non-empty object of "
                        "parameter -> type", **where)
    for name, type_name in signature.items():
        if not isinstance(type_name, str) or not is_known_type(type_name):
            raise bad_input("bad_spec", f"parameter '{name}': unknown type {type_name!r}", **where)

    constexprs = _dict_field(spec, "constexprs", where)
    divisible = _name_list_field(spec, "divisibility_16", signature, where)
    equal_to_1 = _name_list_field(spec, "equal_to_1", signature, where)
    options = _dict_field(spec, "options", where)
    _check_constexprs(signature, constexprs, where)
    for name in divisible + equal_to_1:
        if signature[name] == "constexpr":
            raise bad_input("bad_spec", f"'{name}' is a constexpr; it cannot also be listed in "
                            "divisibility_16 or equal_to_1", **where)
    for name in equal_to_1:
        if signature[name] not in _INT_TYPES:
            raise bad_input("bad_spec", f"equal_to_1 lists '{name}' of type "
                            f"{signature[name]}; only int parameters can equal 1", **where)

    target = target or spec.get("target") or "sm_90"
    if target not in SUPPORTED_TARGETS:
        raise bad_input("bad_target", f"unsupported target '{target}'; supported: "
                        f"{', '.join(SUPPORTED_TARGETS)}", **where)
    return {"kernel": kernel, "signature": dict(signature), "constexprs": dict(constexprs),
            "divisibility_16": divisible, "equal_to_1": equal_to_1, "options": dict(options),
            "target": target}


def _dict_field(spec: dict, key: str, where: dict) -> dict:
    value = spec.get(key, {})
    if not isinstance(value, dict):
        raise bad_input("bad_spec", f"spec.{key} must be an object", **where)
    return value


def _name_list_field(spec: dict, key: str, signature: dict, where: dict) -> list[str]:
    value = spec.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise bad_input("bad_spec", f"spec.{key} must be a list of parameter names", **where)
    unknown = [name for name in value if name not in signature]
    if unknown:
        raise bad_input("bad_spec", f"spec.{key} names parameters not in the signature: "
                        f"{', '.join(unknown)}", **where)
    return list(value)


def _check_constexprs(signature: dict, constexprs: dict, where: dict) -> None:
    for name in constexprs:
        if name not in signature:
            raise bad_input("bad_spec", f"spec.constexprs gives '{name}', which is not in the "
                            "signature", **where)
        if signature[name] != "constexpr":
            raise bad_input("bad_spec", f"spec.constexprs gives a value for '{name}', whose "
                            f"signature type is {signature[name]}, not constexpr", **where)
    missing = [name for name, type_name in signature.items()
               if type_name == "constexpr" and name not in constexprs]
    if missing:
        raise bad_input("bad_spec", f"no value in spec.constexprs for constexpr parameter(s): "
                        f"{', '.join(missing)}", **where)


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


def compile_arguments(spec: dict, arg_names: list[str]) -> tuple[dict, dict, dict]:
    """The (signature, constexprs, attrs) triple for triton's ASTSource, as the JIT builds it."""
    signature = dict(spec["signature"])
    constexprs = dict(spec["constexprs"])
    for name in spec["equal_to_1"]:
        signature[name] = "constexpr"
        constexprs[name] = 1
    attrs = {(arg_names.index(name),): [["tt.divisibility", 16]]
             for name in spec["divisibility_16"]}
    # ASTSource wants the signature in parameter order.
    ordered = {name: signature[name] for name in arg_names}
    return ordered, constexprs, attrs
