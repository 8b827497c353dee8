"""Ascend pass dumps into the compile result's `pass_dumps`, after the TTIR ones.

The TTIR passes run in the worker's process and are dumped by MLIR_ENABLE_DUMP ("IR Dump
Before", split by dumps.py like NVIDIA's). The later passes run in other processes and are
dumped *after* each pass (`kind: "after"`):
  - ttadapter: triton-adapter-opt --mlir-print-ir-tree-dir=DIR writes one file per pass,
    DIR/<anchor folder>/<N>_<argument>.mlir, its first line
    `// -----// IR Dump After <Pass> (<argument>) //----- //`;
  - hivm: bishengir-compile --mlir-print-ir-after-all prints the same headers to stderr, saved
    by the worker as one log (this path never ran here: no CANN).
Each dump becomes passes/NNN-<argument>.mlir, numbered on from the TTIR dumps.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Iterable

from ...dumps import PassDump, dump_file_name

_DUMP_AFTER = re.compile(
    r"^// -----// IR Dump After (?P<pass>\S+)(?: \((?P<argument>[^()]*)\))?"
    r"(?: \('(?P<anchor>[^']+)' operation(?:: (?P<symbol>.*))?\))? //----- //$")
_TREE_FILE = re.compile(r"^(?P<order>\d+)_(?P<argument>.+)\.mlir$")
_NO_SYMBOL = "_no-symbol-name"


def anchor_of_folder(folder: str) -> tuple[str, str | None]:
    """MLIR names a tree-dir folder after the pass's anchor op and its symbol:
    builtin_module_no-symbol-name -> ("builtin.module", None)."""
    if folder.startswith("builtin_module"):
        symbol = folder.removeprefix("builtin_module_")
        return "builtin.module", None if symbol in ("no-symbol-name", "") else f"@{symbol}"
    return folder, None


def tree_dumps(tree_dir: Path) -> list[tuple[int, Path]]:
    """(pass order, file) for every dump file under the tree, in pass order."""
    found = []
    for path in tree_dir.rglob("*.mlir"):
        if match := _TREE_FILE.match(path.name):
            found.append((int(match.group("order")), path))
    return sorted(found, key=lambda item: (item[0], str(item[1])))


def header_fields(header: str, fallback_argument: str) -> dict:
    match = _DUMP_AFTER.match(header.rstrip("\n"))
    if match is None:
        return {"pass_name": fallback_argument, "argument": fallback_argument,
                "anchor": None, "anchor_symbol": None}
    return {"pass_name": match.group("pass"),
            "argument": match.group("argument") or fallback_argument,
            "anchor": match.group("anchor"), "anchor_symbol": match.group("symbol")}


def adopt_tree(tree_dir: Path, passes_dir: Path, first_index: int, stage: str) -> list[PassDump]:
    """Moves the tree's dumps into passes_dir as NNN-<argument>.mlir; removes the tree."""
    dumps = []
    for _, path in tree_dumps(tree_dir):
        with open(path, encoding="utf-8", errors="replace") as handle:
            header = handle.readline()
        fields = header_fields(header, _TREE_FILE.match(path.name).group("argument"))
        anchor, symbol = anchor_of_folder(path.parent.name)
        fields["anchor"] = fields["anchor"] or anchor
        fields["anchor_symbol"] = fields["anchor_symbol"] or symbol
        dump = PassDump(index=first_index + len(dumps), stage=stage, kind="after", **fields)
        dump.path = passes_dir / dump_file_name(dump)
        shutil.move(str(path), dump.path)
        dumps.append(dump)
    shutil.rmtree(tree_dir, ignore_errors=True)
    return dumps


def split_after_all(lines: Iterable[str], passes_dir: Path, first_index: int,
                    stage: str) -> tuple[list[PassDump], list[str]]:
    """Splits an --mlir-print-ir-after-all stream into dump files; returns the dumps and the
    lines before the first header (the tool's own messages)."""
    dumps: list[PassDump] = []
    other: list[str] = []
    handle = None
    try:
        for raw in lines:
            line = raw.rstrip("\n")
            if _DUMP_AFTER.match(line):
                if handle:
                    handle.close()
                fields = header_fields(line, "pass")
                dump = PassDump(index=first_index + len(dumps), stage=stage, kind="after",
                                **fields)
                dump.anchor = dump.anchor or "builtin.module"
                dump.path = passes_dir / dump_file_name(dump)
                dumps.append(dump)
                handle = open(dump.path, "w", encoding="utf-8")
            if handle:
                handle.write(line + "\n")
            else:
                other.append(line)
    finally:
        if handle:
            handle.close()
    return dumps, other
