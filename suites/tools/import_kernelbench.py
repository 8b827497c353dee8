"""Imports a KernelBench level folder into a Strata suite folder.

    .venv/bin/python suites/tools/import_kernelbench.py KernelBench/level1 suites/kb-level1 \
        --solutions drafts/level1 [--force] [--report report.json]

Each reference `N_Name.py` (Model, get_inputs, get_init_inputs, shape globals) becomes the
task `NNN_name.py` (the problem number zero-padded to 3 digits, so tasks sort in problem order)
when `--solutions` holds a file of the same stem with ModelNew and at least one @triton.jit
kernel; the others are listed as skipped, with the reason. The category is guessed from the
name, else from the ops of Model (task_import.CATEGORY_KEYWORDS). flops and bytes are written
as None, and interpret_shapes is left out: both need a person who knows the problem (see
suites/README.md). Unparsable references stop the import before anything is written (exit 2);
an existing task file is kept unless --force.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from task_import import (ImportReport, Reference, SourceError, guess_category,  # noqa: E402
                         import_references, model_source, parse_file, plain_name)


def task_name(stem: str) -> str:
    """`1_Square_matrix_multiplication_` -> `001_square_matrix_multiplication`."""
    name = plain_name(stem)
    number = re.match(r"(\d+)_(.*)", name)
    return f"{int(number.group(1)):03d}_{number.group(2)}" if number else name


def find_references(level_dir: Path, solutions_dir: Path | None) -> list[Reference]:
    references = []
    for path in sorted(level_dir.glob("*.py")):
        if path.name.startswith("_"):
            continue  # __init__.py and helpers are not problems
        try:
            text, tree = parse_file(path)
            category, why = guess_category(path.stem, model_source(text, tree))
        except SourceError:
            category, why = "uncategorized", "unparsable"  # import_references reports it
        candidates = [solutions_dir / path.name] if solutions_dir else []
        references.append(Reference(path, task_name(path.stem), category, why, candidates))
    return references


def run_import(level_dir: Path, out_dir: Path, solutions_dir: Path | None,
               force: bool = False) -> ImportReport:
    references = find_references(level_dir, solutions_dir)
    return import_references(references, out_dir, force, f"KernelBench {level_dir.name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level", type=Path, help="KernelBench level folder (e.g. level1)")
    parser.add_argument("out", type=Path, help="suite folder to write tasks into")
    parser.add_argument("--solutions", type=Path,
                        help="folder of initial solutions (same stems, defining ModelNew)")
    parser.add_argument("--force", action="store_true", help="overwrite existing task files")
    parser.add_argument("--report", type=Path, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    for folder in filter(None, [args.level, args.solutions]):
        if not folder.is_dir():
            parser.error(f"{folder}: not a folder")
    report = run_import(args.level, args.out, args.solutions, args.force)
    if not report.written and not report.skipped and not report.errors:
        parser.error(f"{args.level}: no reference .py files")
    return report.finish(args.report)


if __name__ == "__main__":
    sys.exit(main())
