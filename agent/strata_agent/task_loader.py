"""Loading a task file (KernelBench format) and drawing its inputs. Runs in the task worker.

A task is a Python file with `Model` (the PyTorch reference), `ModelNew` (the candidate),
`get_inputs()` or `get_input_groups()` (MultiKernelBench: a list of input lists), and
`get_init_inputs()`. Optional `STRATA_TASK` dict:

  category      "elementwise", "reduction", "matmul", "memory", ... (free text)
  flops         number, or a formula over the task's int globals and `shapes` / `numels`
  bytes         likewise; default: every input read once plus every output written once
  precision     the ceiling to compare with: "fp16", "bf16", "tf32", "fp32" (default: from dtype)
  extra_shapes  list of {global: value} overrides; verify re-runs every one of them
  tolerance     relative-norm tolerance, overriding the per-dtype default
  allowed_torch_ops  aten op names ModelNew may call besides views and allocations
  interpret_shapes   {global: value} applied when TRITON_INTERPRET=1 (CPU runs need small shapes)
"""
from __future__ import annotations

import ast
import importlib.util
import math
import operator
import os
import sys
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import torch


class TaskError(Exception):
    """A task file that cannot be used; `kind` is one of the bad_input kinds of PROTOCOL.md."""

    def __init__(self, kind: str, message: str, line: int | None = None):
        super().__init__(message)
        self.kind = kind
        self.line = line


@dataclass
class Task:
    path: str
    module: ModuleType
    meta: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return os.path.splitext(os.path.basename(self.path))[0]

    def input_groups(self) -> list[list]:
        """Fresh inputs: one list per group (get_inputs gives a single group)."""
        if hasattr(self.module, "get_input_groups"):
            groups = self.module.get_input_groups()
            return [list(group) for group in groups]
        return [list(self.module.get_inputs())]

    def init_inputs(self) -> list:
        getter = getattr(self.module, "get_init_inputs", None)
        return list(getter()) if getter else []

    def set_shape(self, overrides: dict) -> None:
        for name, value in overrides.items():
            if not hasattr(self.module, name):
                raise TaskError("bad_task", f"extra shape sets '{name}', which is not a global "
                                f"of {self.path}")
            setattr(self.module, name, value)

    def shape_globals(self) -> dict:
        return {name: value for name, value in vars(self.module).items()
                if isinstance(value, int) and not isinstance(value, bool)
                and not name.startswith("_")}


def load_task(path: str) -> Task:
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise TaskError("missing_file", f"task file not found: {path}")
    module_name = f"strata_task_{abs(hash(path))}"
    location = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(location)
    sys.modules[module_name] = module  # dataclasses and pickling look the module up by name
    try:
        location.loader.exec_module(module)
    except SyntaxError as error:
        raise TaskError("syntax_error", f"{path}:{error.lineno}: {error.msg}", error.lineno)
    except Exception as error:
        raise TaskError("import_error", f"importing {path} raised {type(error).__name__}: "
                        f"{error}", _traceback_line(error, path))
    missing = [name for name in ("Model", "ModelNew") if not hasattr(module, name)]
    if not hasattr(module, "get_inputs") and not hasattr(module, "get_input_groups"):
        missing.append("get_inputs (or get_input_groups)")
    if missing:
        raise TaskError("not_a_task", f"{path} lacks {', '.join(missing)}")
    meta = dict(getattr(module, "STRATA_TASK", {}) or {})
    task = Task(path, module, meta)
    if os.environ.get("TRITON_INTERPRET") == "1" and meta.get("interpret_shapes"):
        task.set_shape(meta["interpret_shapes"])
    return task


def _traceback_line(error: BaseException, path: str) -> int | None:
    line = None
    trace = error.__traceback__
    while trace is not None:
        if os.path.abspath(trace.tb_frame.f_code.co_filename) == path:
            line = trace.tb_lineno
        trace = trace.tb_next
    return line


# --- inputs -----------------------------------------------------------------------------------
def draw_inputs(task: Task, seed: int) -> tuple[list[list], list[str]]:
    """Fresh random inputs under `seed`. A floating input that came out all zeros is redrawn
    (zeros hide unwritten outputs); notes say so."""
    torch.manual_seed(seed)
    groups = task.input_groups()
    notes = []
    for group in groups:
        for index, value in enumerate(group):
            if isinstance(value, torch.Tensor) and value.is_floating_point() \
                    and value.numel() > 0 and not bool(widened(value).any()):
                # randn_like has no float8 kernel: float8 draws in float32, then narrows
                group[index] = torch.randn_like(widened(value)).to(value.dtype)
                notes.append(f"input {index} was all zeros; redrawn with randn")
    return groups, notes


FLOAT8_DTYPES = {getattr(torch, name) for name in ("float8_e4m3fn", "float8_e4m3fnuz",
                                                     "float8_e5m2", "float8_e5m2fnuz",
                                                     "float8_e8m0fnu") if hasattr(torch, name)}


def widened(tensor: torch.Tensor) -> torch.Tensor:
    """`tensor` in float32 when it is float8, else itself. Torch implements few ops on float8
    (on an H200 with torch 2.11, `any` fails with "or_cuda not implemented"; isfinite and sub
    fail even on the CPU); float32 holds every float8 value exactly, so a check on the widened
    copy means the same as on the original."""
    return tensor.float() if tensor.dtype in FLOAT8_DTYPES else tensor


def tensors_in(value: Any) -> list:
    """Every tensor in a (nested) output or input structure, in order."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [tensor for item in value for tensor in tensors_in(item)]
    if isinstance(value, dict):
        return [tensor for item in value.values() for tensor in tensors_in(item)]
    return []


def map_tensors(value: Any, convert) -> Any:
    if isinstance(value, torch.Tensor):
        return convert(value)
    if isinstance(value, (list, tuple)):
        return type(value)(map_tensors(item, convert) for item in value)
    if isinstance(value, dict):
        return {key: map_tensors(item, convert) for key, item in value.items()}
    return value


def clone_inputs(group: list) -> list:
    return map_tensors(list(group), lambda tensor: tensor.clone())


def upcast(value: Any) -> Any:
    return map_tensors(value, lambda t: t.double() if t.is_floating_point() else t)


# --- FLOP / byte counts -----------------------------------------------------------------------
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
              ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow,
              ast.Mod: operator.mod}
_FUNCTIONS = {"prod": math.prod, "sum": sum, "max": max, "min": min, "log2": math.log2}


def evaluate_count(formula: Any, names: dict) -> float | None:
    """A number, or an arithmetic formula over `names` (ints, lists, subscripts, prod/sum)."""
    if formula is None:
        return None
    if isinstance(formula, (int, float)) and not isinstance(formula, bool):
        return float(formula)
    if not isinstance(formula, str):
        raise TaskError("bad_task", f"count must be a number or a formula string, not {formula!r}")
    try:
        return float(_evaluate(ast.parse(formula, mode="eval").body, names))
    except TaskError:
        raise
    except Exception as error:
        raise TaskError("bad_task", f"cannot evaluate {formula!r}: {error}")


def _evaluate(node: ast.AST, names: dict) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise TaskError("bad_task", f"unknown name '{node.id}' in a count formula; known: "
                            f"{', '.join(sorted(names))}")
        return names[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.left, names), _evaluate(node.right, names))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_evaluate(node.operand, names)
    if isinstance(node, ast.Subscript):
        return _evaluate(node.value, names)[_evaluate(node.slice, names)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in _FUNCTIONS and not node.keywords:
        return _FUNCTIONS[node.func.id](*[_evaluate(arg, names) for arg in node.args])
    raise TaskError("bad_task", f"unsupported syntax in a count formula: {ast.dump(node)}")


def work_counts(task: Task, inputs: list, outputs: Any) -> dict:
    """FLOPs and bytes of one forward on `inputs`, from STRATA_TASK or the default byte count."""
    input_tensors = tensors_in(inputs)
    output_tensors = tensors_in(outputs)
    names = dict(task.shape_globals())
    names["shapes"] = [list(tensor.shape) for tensor in input_tensors]
    names["numels"] = [tensor.numel() for tensor in input_tensors]
    names["elem_sizes"] = [tensor.element_size() for tensor in input_tensors]
    minimum_bytes = sum(t.numel() * t.element_size() for t in input_tensors + output_tensors)
    flops = evaluate_count(task.meta.get("flops"), names)
    given_bytes = evaluate_count(task.meta.get("bytes"), names)
    return {"flops": flops, "bytes": given_bytes if given_bytes is not None else float(minimum_bytes),
            "bytes_source": "STRATA_TASK" if given_bytes is not None else
            "inputs read once + outputs written once"}
