"""Imports MultiKernelBench references (NPUKernelBench style) into a Strata suite folder.

    .venv/bin/python suites/tools/import_multikernelbench.py MultiKernelBench/reference \
        suites/mkb --solutions drafts/mkb [--only activation reduce] [--force] [--report FILE]

The reference folder holds one folder per category (activation/, reduce/, matmul/, ...), each
with reference modules `name.py` (Model, get_inputs or get_input_groups, get_init_inputs, shape
globals). The category is the folder's, translated to Strata's names by FOLDER_CATEGORIES
(an unknown folder name is kept as it is). The initial solution of `category/name.py` is
`SOLUTIONS/category/name.py` or else `SOLUTIONS/name.py`; it must define ModelNew and at least
one @triton.jit kernel. Each task is written as `name.py`; everything else works as in
import_kernelbench.py (skipped references listed with the reason, errors name file:line and
stop the import before anything is written, existing files kept unless --force).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from task_import import ImportReport, Reference, import_references, plain_name  # noqa: E402

# MultiKernelBench folder -> Strata category (task_import.CATEGORIES).
FOLDER_CATEGORIES = {
    "activation": "elementwise",
    "broadcast": "elementwise",
    "math": "elementwise",
    "optimizer": "elementwise",  # parameter updates: elementwise over the weights
    "reduce": "reduction",
    "reduction": "reduction",
    "normalization": "normalization",
    "norm": "normalization",
    "matmul": "matmul",
    "attention": "attention",
    "convolution": "convolution",
    "conv": "convolution",
    "pooling": "pooling",
    "loss": "loss",
    "index": "indexing",
    "indexing": "indexing",
    "resize": "memory",
    "arch": "architecture",
    "fuse": "fused",  # several ops of different kinds; no single Strata category fits
}


def folder_category(folder: str) -> tuple[str, str]:
    category = FOLDER_CATEGORIES.get(folder.lower(), plain_name(folder) or "uncategorized")
    return category, f"folder '{folder}'"


def find_references(reference_dir: Path, solutions_dir: Path | None,
                    only: list[str]) -> list[Reference]:
    references = []
    for folder in sorted(path for path in reference_dir.iterdir() if path.is_dir()):
        if folder.name.startswith((".", "_")) or (only and folder.name not in only):
            continue
        category, why = folder_category(folder.name)
        for path in sorted(folder.glob("*.py")):
            if path.name.startswith("_"):
                continue
            candidates = [solutions_dir / folder.name / path.name,
                          solutions_dir / path.name] if solutions_dir else []
            references.append(Reference(path, plain_name(path.stem), category, why, candidates))
    return references


def run_import(reference_dir: Path, out_dir: Path, solutions_dir: Path | None,
               force: bool = False, only: list[str] | None = None) -> ImportReport:
    references = find_references(reference_dir, solutions_dir, only or [])
    return import_references(references, out_dir, force, "MultiKernelBench")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("references", type=Path, help="folder of category folders")
    parser.add_argument("out", type=Path, help="suite folder to write tasks into")
    parser.add_argument("--solutions", type=Path, help="folder of initial solutions (ModelNew)")
    parser.add_argument("--only", nargs="*", default=[], help="category folders to import")
    parser.add_argument("--force", action="store_true", help="overwrite existing task files")
    parser.add_argument("--report", type=Path, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    for folder in filter(None, [args.references, args.solutions]):
        if not folder.is_dir():
            parser.error(f"{folder}: not a folder")
    report = run_import(args.references, args.out, args.solutions, args.force, args.only)
    if not report.written and not report.skipped and not report.errors:
        parser.error(f"{args.references}: no category folder with reference .py files")
    return report.finish(args.report)


if __name__ == "__main__":
    sys.exit(main())
