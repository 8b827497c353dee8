"""Captures real launch specs for corpus kernels: drives each library's public ops on CPU tensors
while JITFunction.run only records the launch (collect.capture_specs; nothing is launched), so
the spec is what Triton's own binder makes of a real call (pointer alignment, ints divisible by
16 or equal to 1, the constexprs and autotune config the wrapper picked).

flag_gems: every aten registration of `flag_gems._FULL_CONFIG`, its arguments built from the aten
schema (Tensor -> a random tensor of a benchmark-like shape, ints/floats/bools/lists from their
defaults or a small valid value); each op is tried over a few shapes and dtypes until it
launches. Autotuners pick their first pruned config (no timing on a CPU).
liger_kernel (transformers.functional) and fla (fla.ops): every public function, its required
parameters filled by name from a few shape profiles (activations, weights, labels; fla's
(batch, time, heads, dim) q/k/v and gates), forward and then backward (the backward kernels are
launched from autograd), until one profile launches.

usage: python bench/corpus/drive_ops.py OUT.jsonl [--library L ...] [--limit N]
One JSON line per distinct kernel (file, name): {"library", "kernel", "file", "line", "op",
"spec", "how": "captured"}, the spec with the call's scalar_args and tensor_elements; a flag_gems
op with an int `dim` is called again along the first axis, and the kernels that call launches get
a second line with "variant": "dim=0" (collect.py keeps it where its spec differs); after each library a {"summary": {...}} line (ops tried, launched,
kernels, and each failed op's error).
collect.py --captured OUT.jsonl prefers these specs over guessed ones.
"""
from __future__ import annotations

import argparse
import functools
import inspect
import json
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "site"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "agent"))
os.environ.setdefault("GEMS_VENDOR", "nvidia")
from target_device import pretend_active_driver, pretend_target_device  # noqa: E402

# Shapes a benchmark would use, most common first: a 2-D activation, a batched 3-D one, an NCHW
# image and a flat vector, with square ones for products. The first that launches is kept.
SHAPES = [(64, 512), (256, 256), (4, 64, 128), (4, 64, 64), (2, 16, 32, 32), (4096,)]
INDEX_NAMES = {"index", "indices", "target", "offsets", "input_indices", "weight_indices"}
OUTER_DIM = "(dim=0)"  # the op name suffix of a launch variant along the first axis


def _tensor(shape: tuple, dtype):
    import torch
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=torch.float32).to(dtype)
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    return torch.randint(0, 8, shape, dtype=dtype)


def _list_value(name: str, shape: tuple) -> list:
    if "dim" in name:
        return [len(shape) - 1]
    if name in {"size", "shape", "output_size", "sizes", "stride"}:
        return list(shape)
    if name in {"dims", "perm"}:
        return list(reversed(range(len(shape))))
    return [1] * (2 if name in {"pad", "padding", "kernel_size"} else len(shape))


def _argument(arg, shape: tuple, dtype, outer_dim: bool = False) -> tuple[bool, Any]:
    """(pass it, value) for one aten schema argument; an int `dim` is the last axis, or the first
    with `outer_dim` (a scan or reduction across rows walks a strided column)."""
    import torch
    kind = str(arg.type)
    name = arg.name
    if arg.has_default_value() and not kind.startswith("Tensor"):
        return (not arg.kwarg_only), arg.default_value
    if kind.startswith("Optional["):
        return (not arg.kwarg_only), None
    if kind == "Tensor":
        if name in INDEX_NAMES:
            return True, torch.randint(0, min(shape[-1], 8), shape, dtype=torch.int64)
        return True, _tensor(shape, dtype)
    if kind == "List[Tensor]":
        return True, [_tensor(shape, dtype), _tensor(shape, dtype)]
    if kind == "List[Optional[Tensor]]":
        return True, [torch.randint(0, min(shape[0], 8), (shape[0],), dtype=torch.int64)]
    if kind in {"int", "SymInt"}:
        return True, (0 if outer_dim else len(shape) - 1) if "dim" in name else 2
    if kind.startswith("List[") and ("int" in kind or "SymInt" in kind):
        return True, _list_value(name, shape)
    if kind == "float":
        return True, 0.5
    if kind in {"number", "Scalar"}:  # of the inputs' kind: an int beside int tensors (bitwise ops)
        return True, 0.5 if dtype.is_floating_point else 2
    if kind == "bool":
        return True, False
    if kind == "List[bool]":
        return True, [True, True, False]
    return True, None


def _call_gems_op(fn, schema, shape, dtype, outer_dim=False):
    args, kwargs = [], {}
    for arg in schema.arguments:
        passed, value = _argument(arg, shape, dtype, outer_dim)
        if not passed:
            continue
        if arg.kwarg_only:
            kwargs[arg.name] = value
        else:
            args.append(value)
    return fn(*args, **kwargs)


def first_launch(attempts) -> tuple[list[dict], str | None]:
    """The records of the first attempt (a call) that launched a kernel whose launches all pass
    Triton's front end (collect.frontend_error: on a GPU the call would fail compiling otherwise,
    so the op does not take these inputs); when none does, the first attempt that launched at all
    (its compile failure is then the library's own), else no records and the last error an
    attempt raised."""
    from collect import capture_specs, frontend_error
    error, fallback = "launched nothing", None
    for attempt in attempts:
        records, raised = capture_specs(attempt, partial=True)
        if not records:
            error = raised or error
            continue
        rejected = next((f"{r['kernel']}: {problem}" for r in records
                         for problem in [frontend_error(r["jit"], r["spec"])] if problem), None)
        if rejected is None:
            return records, None
        fallback = fallback or (records, f"every input failed Triton's front end; first: {rejected}")
    return fallback if fallback else ([], error)


def _schema(name: str):
    import torch
    op, _, overload = name.partition(".")
    return getattr(getattr(torch.ops.aten, op), overload or "default")._schema


def drive_flag_gems(limit: int = 0):
    """(op name, records) for every flag_gems registration that launched at least one kernel."""
    import torch
    import flag_gems
    dtypes = [torch.float16, torch.float32, torch.int32, torch.bool]
    entries = flag_gems._FULL_CONFIG[:limit] if limit else flag_gems._FULL_CONFIG
    outer = []  # ops with an int dim, called again along the first axis after all others
    for entry in entries:
        name, fn = entry[0], entry[1]
        try:
            schema = _schema(name)
        except (AttributeError, RuntimeError):
            yield name, [], "no aten schema"
            continue
        yield (name, *first_launch(functools.partial(_call_gems_op, fn, schema, shape, dtype)
                                   for dtype in dtypes for shape in SHAPES))
        if any(str(arg.type) in {"int", "SymInt"} and "dim" in arg.name and not arg.has_default_value()
               for arg in schema.arguments):
            outer.append((name, fn, schema))
    # The same ops along the first axis of a 2-D or larger input: the kernels they reach run with
    # an inner size > 1 (a column walk) where the last axis gave 1. Last, so that the random
    # inputs of every other op stay what they were without these calls.
    for name, fn, schema in outer:
        yield (f"{name} {OUTER_DIM}", *first_launch(
            functools.partial(_call_gems_op, fn, schema, shape, dtype, True)
            for dtype in dtypes for shape in SHAPES if len(shape) >= 2))


# Per parameter name, one builder per profile (the last one repeats): liger's row-major
# activations with a hidden size H, weights as (vocab, H) or (H,), integer labels; fla's
# (B, T, heads, dim) q/k/v/gates and per-head scalars (B, T, heads).
ROWS, HIDDEN, VOCAB, B, T, HEADS, DIM = 64, 512, 1024, 2, 128, 4, 64


def _profiles(dtype):
    import torch

    def t(*shape, grad=True, scale=1.0):
        return lambda: (torch.randn(shape) * scale).to(dtype).requires_grad_(grad)

    def labels(n, high):
        return lambda: torch.randint(0, high, (n,), dtype=torch.int64)
    act = t(ROWS, HIDDEN)
    head4 = t(B, T, HEADS, DIM)
    head3 = t(B, T, HEADS)
    return {
        **{n: [act] for n in ("input", "_input", "X", "x", "a", "b", "student_input", "teacher_input",
                              "hidden_states", "residual", "y", "y_pred", "y_true")},
        **{n: [t(VOCAB, HIDDEN), t(HIDDEN)] for n in ("weight", "W", "student_weight", "teacher_weight",
                                                        "lin_weight")},
        **{n: [labels(ROWS, HIDDEN), labels(ROWS, VOCAB)] for n in ("target", "labels", "shift_labels")},
        **{n: [t(HIDDEN)] for n in ("B", "bias", "affine_scaling_weight")},
        **{n: [act] for n in ("R", "scores", "key", "value", "query_states")},
        **{n: [lambda: 1e-6] for n in ("eps", "q_norm_eps", "k_norm_eps")},
        **{n: [t(1)] for n in ("alpha", "scale", "lamb")},
        **{n: [head4, t(B, HEADS, T, DIM)] for n in ("q", "k")},
        **{n: [t(1, T, DIM)] for n in ("cos", "sin")},
        **{n: [head4, t(B, HEADS, T, DIM)] for n in ("v", "r", "w", "u", "p", "s", "gk", "query",
                                                      "k_tilde", "residuals")},
        **{n: [head4, head3] for n in ("g", "g_atk")},
        **{n: [head3] for n in ("beta", "beta_atk", "log_alpha", "log_mu", "delta")},
        **{n: [t(DIM)] for n in ("q_norm_weight", "k_norm_weight", "rms_weight", "readout")},
    }


def _call_with_profile(fn, profile: int, dtype):
    import torch
    builders = _profiles(dtype)
    args = []
    for name, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL) or param.default is not param.empty:
            continue
        if name not in builders:
            raise TypeError(f"no value for required parameter {name!r}")
        options = builders[name]
        args.append(options[min(profile, len(options) - 1)]())
    out = fn(*args)
    first = out[0] if isinstance(out, (tuple, list)) else getattr(out, "loss", out)
    if isinstance(first, torch.Tensor) and first.requires_grad:
        first.backward(torch.ones_like(first))  # the backward kernels launch from autograd


def drive_functions(module_name: str, prefix: str = ""):
    """(function name, records, error) for every public function of a module."""
    import importlib
    import torch
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in vars(module) if n.startswith(prefix)]
    for name in names:
        fn = getattr(module, name, None)
        if not callable(fn) or inspect.isclass(fn):
            continue
        yield (name, *first_launch(functools.partial(_call_with_profile, fn, profile, dtype)
                                   for dtype in (torch.bfloat16, torch.float32) for profile in range(3)))


DRIVERS = {
    "flag_gems": lambda limit: drive_flag_gems(limit),
    "liger_kernel": lambda limit: drive_functions("liger_kernel.transformers.functional", "liger_"),
    "fla": lambda limit: drive_functions("fla.ops"),
}


def standalone_copy(path: str, imports: list[str], out: str) -> str:
    """A copy of a generated kernel file that compiles on its own: the original text (lines
    unchanged) and, after it, the imports of the names the library's loader added to the module
    at run time (collect.standalone_imports). Kept beside OUT, under the original's folder name."""
    folder = os.path.join(os.path.dirname(os.path.abspath(out)), "standalone",
                          os.path.basename(os.path.dirname(path)))
    os.makedirs(folder, exist_ok=True)
    text = open(path, encoding="utf-8").read()
    text += ("" if text.endswith("\n") else "\n") + (
        "\n# Added by bench/corpus/drive_ops.py: names the library's loader put into this module at "
        "run time\n" + "\n".join(imports) + "\n")
    destination = os.path.join(folder, os.path.basename(path))
    with open(destination, "w", encoding="utf-8") as handle:
        handle.write(text)
    return destination


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--limit", type=int, default=0, help="first N flag_gems ops only (a quick try)")
    parser.add_argument("--library", action="append", choices=list(DRIVERS))
    args = parser.parse_args()
    pretend_target_device()
    pretend_active_driver()
    import torch
    torch.manual_seed(0)  # the random inputs (masks, indices) decide some launches' grids
    from triton.runtime.autotuner import Autotuner
    # No timing on a CPU: every config "takes" its index, so the first pruned config is chosen.
    Autotuner._bench = lambda self, *a, config=None, **k: [float(self.configs.index(config))
                                                          if config in self.configs else 0.0] * 3
    seen = set()
    with open(args.out, "w") as out:
        for library in args.library or list(DRIVERS):
            tried, launched, failures, kernels = 0, 0, {}, 0
            for op, records, error in DRIVERS[library](args.limit):
                tried += 1
                launched += bool(records)
                if error:
                    failures[op] = error[:200]
                variant = "dim=0" if op.endswith(OUTER_DIM) else ""
                for record in records:
                    key = (os.path.abspath(record["file"]), record["kernel"], variant)
                    if key in seen or record["problems"]:
                        continue
                    seen.add(key)
                    kernels += not variant
                    row = {"library": library, "kernel": record["kernel"], "file": key[0],
                           "line": record["line"], "op": op, "spec": record["spec"], "how": "captured"}
                    if record.get("imports"):
                        row.update(file=standalone_copy(key[0], record["imports"], args.out),
                                   original_file=key[0])
                    out.write(json.dumps({**row, "variant": variant} if variant else row) + "\n")
            summary = {"library": library, "ops_tried": tried, "ops_launched": launched,
                       "kernels": kernels, "failures": failures}
            out.write(json.dumps({"summary": summary}) + "\n")
            print(json.dumps({k: v for k, v in summary.items() if k != "failures"}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
