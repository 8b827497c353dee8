"""Shared code of the benchmark importers (import_kernelbench.py, import_multikernelbench.py).

A benchmark reference file holds `Model` (PyTorch), `get_inputs()` (or `get_input_groups()`),
`get_init_inputs()` and module-level shape globals, but no Triton kernel. An initial solution
file of the same stem holds `ModelNew` and its `@triton.jit` kernels (say, an LLM's first
draft). The importer writes one Strata task per reference: the reference's code, the
solution's kernels and ModelNew, a `get_inputs` that puts the tensors on the task device, and
a STRATA_TASK dict. Everything is read with `ast`: nothing from either file is executed.

References that cannot be parsed are errors (file:line), and nothing is written. A reference
whose solution is missing or unusable is skipped, with the reason in the report: never dropped
silently. An existing task file is kept unless `force`.
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

# The categories Strata's suites use (STRATA_TASK["category"]); suites/README.md lists them.
CATEGORIES = {
    "elementwise": "one output element per input element: activations, arithmetic, casts",
    "reduction": "sums, means, max/min/argmax over an axis",
    "softmax": "softmax and log-softmax over an axis",
    "normalization": "layer/RMS/group/batch/instance norms, vector norms",
    "matmul": "GEMM, GEMV, batched and quantized matmuls, linear layers",
    "attention": "scaled-dot-product attention in its variants",
    "scan": "prefix sums and products",
    "indexing": "gather, scatter, index_add, embedding lookups",
    "llm_fused": "fused LLM building blocks: RoPE, SwiGLU, (de)quantization, MoE gating",
    "pooling": "max/avg pooling windows",
    "convolution": "convolutions and transposed convolutions",
    "memory": "data movement without arithmetic: transposes, layout changes, copies",
    "loss": "loss functions reduced to a scalar",
    "architecture": "a whole network or block (KernelBench level 3, MultiKernelBench arch)",
    "fused": "several ops of different kinds in one problem (MultiKernelBench fuse)",
}
UNCATEGORIZED = "uncategorized"

# Category guess for a benchmark problem, first match wins, so the heaviest op of a fused
# problem names it ("Conv2d_ReLU_BiasAdd" is a convolution, "Gemm_Sigmoid_Sum" a matmul) and
# activations come before reductions ("MinGPTNewGelu" is elementwise, not a min).
# Name keywords are matched against the file stem in snake case ("LayerNorm" -> "layer_norm",
# "RMSNorm" -> "rms_norm"): a keyword with "_" anywhere in it, one without "_" as the start of
# a word ("conv" matches "conv2_d", "sum" does not match "cumsum"). Op keywords are matched
# against the source of class Model, only when no name keyword matched.
CATEGORY_KEYWORDS: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    ("attention", ("attention", "attn", "sdpa", "scaled_dot_product"),
     ("scaled_dot_product_attention", "MultiheadAttention")),
    ("architecture", ("mlp", "vgg", "res_net", "resnet", "dense_net", "densenet", "net",
                      "mobile_net", "efficient_net", "lstm", "ltsm", "gru", "rnn",
                      "transformer", "vision", "squeeze_net", "alex_net", "le_net", "mamba",
                      "google_net", "net_vlad", "u_net", "swin", "min_gpt_block", "conv_ne_xt"),
     ("nn.LSTM", "nn.GRU", "nn.RNN", "nn.Sequential", "nn.TransformerEncoder")),
    ("convolution", ("conv",), ("nn.Conv", "conv1d(", "conv2d(", "conv3d(", "conv_transpose")),
    ("matmul", ("matmul", "matrix_multiplication", "matrix_vector", "mat_mul", "gemm", "gemv",
                "bmm", "linear", "einsum", "matvec"),
     ("torch.matmul", "torch.bmm", "torch.mm(", "nn.Linear", "F.linear", "einsum", " @ ")),
    ("normalization", ("norm",), ("Norm(", "layer_norm", "group_norm", "batch_norm",
                                  "instance_norm", "rms_norm", "torch.norm", "linalg.norm")),
    ("softmax", ("softmax",), ("softmax",)),
    ("loss", ("loss", "cross_entropy", "kl_div", "hinge", "huber", "triplet"),
     ("_loss(", "Loss(", "cross_entropy", "kl_div")),
    ("scan", ("cumsum", "cumprod", "cummax", "cummin", "cumulative", "scan"),
     ("cumsum", "cumprod", "cummax", "cummin")),
    ("pooling", ("pool",), ("Pool", "_pool")),
    ("indexing", ("gather", "scatter", "embedding", "index", "take_along"),
     ("gather", "scatter", "index_select", "index_add", "Embedding", "embedding(")),
    ("llm_fused", ("rope", "rotary", "swiglu", "geglu", "quantiz", "dequant", "moe", "gating",
                   "top_k", "topk"),
     ("topk",)),
    ("elementwise", ("relu", "leaky", "gelu", "elu", "selu", "silu", "swish", "sigmoid", "tanh",
                     "softplus", "softsign", "hard", "mish", "add", "sub", "mul", "div",
                     "scalar", "clamp", "where", "power", "abs", "sqrt", "broadcast", "bias",
                     "dropout", "activation"),
     ("relu", "gelu", "sigmoid", "tanh", "silu", "torch.add", "torch.mul", "torch.where",
      "torch.clamp")),
    ("reduction", ("reduction", "reduce", "sum", "mean", "max", "min", "prod", "argmax",
                   "argmin", "log_sum_exp", "logsumexp"),
     (".sum(", ".mean(", "torch.max", "torch.min", ".amax(", ".amin(", "argmax", "argmin",
      ".prod(", "torch.sum", "torch.mean", "logsumexp")),
    ("memory", ("transpose", "permute", "concat", "copy", "cast", "layout", "resize",
                "interpolate", "upsample"),
     (".permute(", ".transpose(", "torch.cat", ".contiguous()", "interpolate")),
]

# Functions the importer writes itself or that belong to the reference: a solution's own copies
# are left out of the task.
REFERENCE_NAMES = ("Model", "get_inputs", "get_input_groups", "get_init_inputs")
TRITON_DECORATORS = {"jit", "autotune", "heuristics"}


class SourceError(Exception):
    """A file that cannot be read or parsed; the message starts with `path:line:`."""

    def __init__(self, path: Path, line: int | None, message: str):
        super().__init__(f"{path}:{line if line is not None else 1}: {message}")
        self.path = path
        self.line = line


@dataclass
class Reference:
    """One benchmark problem: where its reference lives and what the task will be called."""
    path: Path
    task_name: str
    category: str
    category_reason: str
    solution_candidates: list[Path]  # first existing one is the initial solution


@dataclass
class ImportReport:
    written: list[Path] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (reference, reason)
    errors: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"written {len(self.written)} task(s)"]
        out += [f"  {path}" for path in self.written]
        out.append(f"skipped {len(self.skipped)} reference(s)")
        out += [f"  {reference}: {reason}" for reference, reason in self.skipped]
        if self.errors:
            out.append(f"{len(self.errors)} error(s); nothing was written")
            out += [f"  {error}" for error in self.errors]
        return out

    def finish(self, json_path: Path | None = None) -> int:
        """Prints the report (and writes it as JSON); the exit status: 2 on errors, else 0."""
        print("\n".join(self.lines()))
        if json_path:
            json_path.write_text(json.dumps({
                "written": [str(path) for path in self.written],
                "skipped": [{"reference": ref, "reason": why} for ref, why in self.skipped],
                "errors": self.errors}, indent=1))
        return 2 if self.errors else 0


# --- reading ----------------------------------------------------------------------------------
def parse_file(path: Path) -> tuple[str, ast.Module]:
    """Source text and syntax tree, or SourceError naming the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise SourceError(path, None, f"not UTF-8 text ({error.reason})") from None
    except OSError as error:
        raise SourceError(path, None, f"cannot read: {error.strerror}") from None
    try:
        return text, ast.parse(text, filename=str(path))
    except SyntaxError as error:
        raise SourceError(path, error.lineno, f"syntax error: {error.msg}") from None


def top_level_names(tree: ast.Module) -> dict[str, ast.stmt]:
    """Names bound by top-level defs, classes and simple assignments, with their statement."""
    names: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        names[name.id] = node
    return names


def check_reference(path: Path, tree: ast.Module) -> None:
    """A reference must define class Model and get_inputs (or get_input_groups)."""
    names = top_level_names(tree)
    missing = []
    if not isinstance(names.get("Model"), ast.ClassDef):
        missing.append("class Model")
    if not any(isinstance(names.get(name), ast.FunctionDef)
               for name in ("get_inputs", "get_input_groups")):
        missing.append("def get_inputs()")
    if missing:
        raise SourceError(path, 1, f"not a benchmark reference: it lacks {' and '.join(missing)}")


def is_triton_kernel(node: ast.stmt) -> bool:
    if not isinstance(node, ast.FunctionDef):
        return False
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr in TRITON_DECORATORS:
            return True
        if isinstance(target, ast.Name) and target.id in TRITON_DECORATORS:
            return True
    return False


# --- categories -------------------------------------------------------------------------------
def plain_name(name: str) -> str:
    """`1_Square_matrix_multiplication_` -> `1_square_matrix_multiplication`: lower case, runs
    of other characters as one "_"."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def snake_case(name: str) -> str:
    """`LayerNorm` -> `layer_norm`, `RMSNorm` -> `rms_norm` (and `ReLU` -> `re_lu`, which is
    why keywords are matched against plain_name's words too)."""
    return plain_name(re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name))


def guess_category(name: str, model_source: str) -> tuple[str, str]:
    """(category, why) from CATEGORY_KEYWORDS: the name first, then the ops of class Model."""
    forms = {snake_case(name), plain_name(name)}
    words = {word for form in forms for word in form.split("_")}
    for category, name_words, _ in CATEGORY_KEYWORDS:
        for keyword in name_words:
            if any(keyword in form for form in forms) if "_" in keyword else \
                    any(word.startswith(keyword) for word in words):
                return category, f"name contains '{keyword}'"
    for category, _, op_words in CATEGORY_KEYWORDS:
        for word in op_words:
            if word in model_source:
                return category, f"Model uses '{word.strip()}'"
    return UNCATEGORIZED, "no keyword of the category table matched"


def model_source(text: str, tree: ast.Module) -> str:
    node = top_level_names(tree).get("Model")
    return (ast.get_source_segment(text, node) or "") if node is not None else ""


# --- writing ----------------------------------------------------------------------------------
def statement_lines(node: ast.stmt) -> tuple[int, int]:
    """First and last line of a statement, decorators included (1-based, inclusive)."""
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return first, node.end_lineno or node.lineno


def is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
        and isinstance(node.value.value, str)


def is_main_guard(node: ast.stmt) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and isinstance(test, ast.Compare) \
        and isinstance(test.left, ast.Name) and test.left.id == "__name__"


def text_without(text: str, nodes: list[ast.stmt]) -> str:
    """`text` minus the lines of `nodes`; comments and blank lines elsewhere stay."""
    dropped: set[int] = set()
    for node in nodes:
        first, last = statement_lines(node)
        dropped.update(range(first, last + 1))
    kept = [line for number, line in enumerate(text.splitlines(), start=1)
            if number not in dropped]
    return re.sub(r"\n{4,}", "\n\n\n", "\n".join(kept)).strip("\n")


def import_lines(text: str, tree: ast.Module) -> list[str]:
    return [ast.get_source_segment(text, node) or "" for node in tree.body
            if isinstance(node, (ast.Import, ast.ImportFrom))]


def solution_parts(path: Path, reference_tree: ast.Module) -> tuple[list[str], str]:
    """(import lines, code) of an initial solution: its kernels, helpers and ModelNew, without
    its own Model/get_inputs/shape globals (the reference's are kept). Raises ValueError with
    the reason the solution cannot be used."""
    try:
        text, tree = parse_file(path)
    except SourceError as error:
        raise ValueError(f"initial solution unusable: {error}") from None
    names = top_level_names(tree)
    if not isinstance(names.get("ModelNew"), ast.ClassDef):
        raise ValueError(f"initial solution {path} defines no class ModelNew")
    if not any(is_triton_kernel(node) for node in tree.body):
        raise ValueError(f"initial solution {path} has no @triton.jit kernel (a draft in another "
                         "kernel language, or torch alone, is not a Triton task)")
    reference_names = top_level_names(reference_tree)
    dropped = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) or is_docstring(node) \
                or is_main_guard(node):
            dropped.append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name in REFERENCE_NAMES:
                dropped.append(node)
            elif node.name in reference_names:
                raise ValueError(f"{path}:{node.lineno}: initial solution redefines "
                                 f"'{node.name}', which the reference defines too")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            bound = {name for name, statement in names.items() if statement is node}
            if bound and bound <= set(reference_names):
                dropped.append(node)  # the solution's copy of a shape global: the reference wins
    return import_lines(text, tree), text_without(text, dropped)


DEVICE_ADAPTER = '''\
# Added by the importer. The benchmark's own harness moves inputs to the GPU; the Strata agent
# uses get_inputs() as given, so the tensors go to the task device here (the CPU under Triton's
# interpreter, which hides the GPUs).
_ACCELERATOR = getattr(torch, "accelerator", None)  # whichever backend's device torch has (torch >= 2.6)
_TASK_DEVICE = (_ACCELERATOR.current_accelerator() if _ACCELERATOR and _ACCELERATOR.is_available() else None) or "cpu"


def _on_task_device(value):
    if isinstance(value, torch.Tensor):
        return value.to(_TASK_DEVICE)
    if isinstance(value, (list, tuple)):
        return type(value)(_on_task_device(item) for item in value)
    return value
'''


def device_wrappers(reference_names: dict) -> str:
    """Rebinds the reference's input getters to move their tensors to the task device."""
    parts = [DEVICE_ADAPTER]
    for getter in ("get_inputs", "get_input_groups"):
        if getter in reference_names:
            parts.append(f"\n\n_reference_{getter} = {getter}\n\n\n"
                         f"def {getter}():\n"
                         f"    return _on_task_device(list(_reference_{getter}()))\n")
    return "".join(parts)


def strata_task_text(category: str, category_reason: str) -> str:
    return (f"# category chosen by the importer ({category_reason}); flops and bytes are\n"
            f"# unknown: fill in formulas over the shape globals (see suites/README.md), or\n"
            f"# leave bytes None for the agent's default (inputs read + outputs written once).\n"
            f"STRATA_TASK = {{\n"
            f"    \"category\": {json.dumps(category)},\n"
            f"    \"flops\": None,\n"
            f"    \"bytes\": None,\n"
            f"}}\n")


def first_docstring_line(tree: ast.Module) -> str:
    """The module's docstring, else class Model's (KernelBench documents the class)."""
    model = top_level_names(tree).get("Model")
    for node in (tree, model if isinstance(model, ast.ClassDef) else None):
        docstring = (ast.get_docstring(node) or "").strip() if node is not None else ""
        if docstring:
            return docstring.splitlines()[0].replace('"""', "").strip()
    return ""


def merged_imports(*groups: list[str]) -> list[str]:
    """Imports of both files once each, `from __future__` first, `import torch` guaranteed
    (the device adapter needs it)."""
    seen: list[str] = []
    for line in [line for group in groups for line in group] + ["import torch"]:
        if line and line not in seen:
            seen.append(line)
    return sorted(seen, key=lambda line: not line.startswith("from __future__"))


def build_task_text(reference: Reference, reference_text: str, reference_tree: ast.Module,
                    solution: Path, source_label: str) -> str:
    solution_imports, solution_code = solution_parts(solution, reference_tree)
    summary = first_docstring_line(reference_tree) or reference.path.stem.replace("_", " ")
    header = (f'"""{summary}\n\nImported by suites/tools/ from {source_label} '
              f"{reference.path.name} (Model, inputs)\nand the initial solution "
              f'{solution.name} (ModelNew, kernels).\n"""')
    dropped = [node for node in reference_tree.body
               if isinstance(node, (ast.Import, ast.ImportFrom)) or is_docstring(node)
               or is_main_guard(node)]
    reference_code = text_without(reference_text, dropped)
    imports = merged_imports(import_lines(reference_text, reference_tree), solution_imports)
    sections = [header + "\n" + "\n".join(imports),
                strata_task_text(reference.category, reference.category_reason).rstrip(),
                f"# --- reference ({reference.path.name}) ---\n{reference_code}",
                f"# --- initial solution ({solution.name}) ---\n{solution_code}",
                device_wrappers(top_level_names(reference_tree)).rstrip()]
    text = "\n\n\n".join(sections) + "\n"
    try:
        ast.parse(text)
    except SyntaxError as error:  # e.g. a solution that mixes tabs and spaces with the reference
        raise ValueError(f"the merged task does not parse (line {error.lineno}: {error.msg})")
    return text


def import_references(references: list[Reference], out_dir: Path, force: bool,
                      source_label: str) -> ImportReport:
    """Writes one task per reference that has a usable initial solution (see module doc)."""
    report = ImportReport()
    parsed = {}
    for reference in references:
        try:
            text, tree = parse_file(reference.path)
            check_reference(reference.path, tree)
            parsed[reference.path] = (text, tree)
        except SourceError as error:
            report.errors.append(str(error))
    names: dict[str, Path] = {}
    for reference in references:
        if reference.task_name in names:
            report.errors.append(f"{reference.path}:1: task name '{reference.task_name}' is "
                                 f"also the name of {names[reference.task_name]}")
        names[reference.task_name] = reference.path
    if report.errors:
        return report
    pending: list[tuple[Path, str]] = []
    for reference in references:
        solution = next((path for path in reference.solution_candidates if path.is_file()), None)
        target = out_dir / f"{reference.task_name}.py"
        if solution is None:
            tried = " or ".join(str(path) for path in reference.solution_candidates)
            report.skipped.append((str(reference.path), f"no initial solution ({tried})" if tried
                                   else "no initial solution (no solutions folder given; the "
                                   "reference alone has no Triton kernel)"))
            continue
        if target.exists() and not force:
            report.skipped.append((str(reference.path), f"{target} exists (--force overwrites)"))
            continue
        text, tree = parsed[reference.path]
        try:
            pending.append((target, build_task_text(reference, text, tree, solution,
                                                    source_label)))
        except ValueError as error:
            report.skipped.append((str(reference.path), str(error)))
    out_dir.mkdir(parents=True, exist_ok=True)
    for target, text in pending:
        target.write_text(text, encoding="utf-8")
        report.written.append(target)
    return report
