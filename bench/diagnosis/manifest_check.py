"""Reads and checks the planted-cause manifest (bench/diagnosis/manifest.json).

A manifest is well formed when every kernel names an existing source and spec, the spec's kernel
is the kernel named, its cause class exists, its planted lines are code lines of the source, and
every class has rules (a kernel-level class, whose findings point at no line, may leave
`lines` empty); classes are used by at least two kernels (a class with one kernel would
let one lucky rule decide it)."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

KNOWN_NEEDS = ("static", "measurement")
MIN_KERNELS = 20


def load_manifest(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _check_kernel(kernel: dict, classes: dict, root: Path) -> list[str]:
    where = f"kernel {kernel.get('id', '?')}"
    problems = []
    for key in ("id", "source", "spec", "kernel", "cause_class", "lines", "needs"):
        if key not in kernel:
            problems.append(f"{where}: missing '{key}'")
    if problems:
        return problems
    if kernel["cause_class"] not in classes:
        problems.append(f"{where}: unknown cause class '{kernel['cause_class']}'")
    if kernel["needs"] not in KNOWN_NEEDS:
        problems.append(f"{where}: needs must be one of {KNOWN_NEEDS}")
    source, spec = root / kernel["source"], root / kernel["spec"]
    if not source.is_file() or not spec.is_file():
        return problems + [f"{where}: missing {kernel['source']} or {kernel['spec']}"]
    spec_json = json.loads(spec.read_text(encoding="utf-8"))
    if spec_json.get("kernel") != kernel["kernel"]:
        problems.append(f"{where}: {kernel['spec']} names kernel '{spec_json.get('kernel')}'")
    text = source.read_text(encoding="utf-8").split("\n")
    if f"def {kernel['kernel']}(" not in "\n".join(text):
        problems.append(f"{where}: {kernel['source']} has no def {kernel['kernel']}(")
    kernel_level = classes.get(kernel["cause_class"], {}).get("kernel_level", False)
    if not kernel["lines"] and not kernel_level:
        problems.append(f"{where}: no planted lines (only kernel-level classes may leave them empty)")
    for line in kernel["lines"]:
        if not isinstance(line, int) or not 1 <= line <= len(text) or not text[line - 1].strip() \
                or text[line - 1].strip().startswith("#"):
            problems.append(f"{where}: planted line {line} is not a code line of {kernel['source']}")
    return problems


def check_manifest(manifest: dict, root: Path) -> list[str]:
    """Every problem of the manifest, as readable lines; empty when it is well formed."""
    problems = []
    classes = manifest.get("classes", {})
    kernels = manifest.get("kernels", [])
    if manifest.get("schema") != "strata.diagnosis-bench":
        problems.append("schema is not strata.diagnosis-bench")
    for name, cause_class in classes.items():
        if not cause_class.get("rules"):
            problems.append(f"class {name}: no rules")
    ids = Counter(kernel.get("id") for kernel in kernels)
    problems += [f"kernel id '{kid}' appears {count} times" for kid, count in ids.items() if count > 1]
    for kernel in kernels:
        problems += _check_kernel(kernel, classes, Path(root))
    used = Counter(kernel.get("cause_class") for kernel in kernels)
    problems += [f"class {name}: only {used[name]} kernel(s), want 2" for name in classes if used[name] < 2]
    if sum(1 for kernel in kernels if kernel.get("needs") == "static") < MIN_KERNELS:
        problems.append(f"fewer than {MIN_KERNELS} statically scored kernels")
    return problems
