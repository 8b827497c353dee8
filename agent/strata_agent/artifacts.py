"""Artifact references: path + size + sha256, never the content; and the portable form of a
compile result that compile.json stores (paths relative to its folder)."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path


def file_ref(path: Path) -> dict:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return {"path": str(path), "size": path.stat().st_size, "sha256": digest.hexdigest()}


def path_in_folder(path: str, folder: Path) -> str:
    """`path` relative to `folder` when it lies inside it, else unchanged (absolute)."""
    try:
        return Path(path).resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return path


def portable_result(result: dict, folder: Path) -> dict:
    """The result as compile.json stores it: every artifact and pass dump inside `folder` named
    relative to it and work_dir ".", so a copied, moved or unpacked folder reads its own files.
    source_path stays as the compiler saw it: IR locations name it, nothing is read from it."""
    def relative(ref: dict) -> dict:
        return {**ref, "path": path_in_folder(ref["path"], folder)} if ref.get("path") else ref
    return {**result, "work_dir": ".",
            "artifacts": {key: relative(ref) for key, ref in result["artifacts"].items()},
            "pass_dumps": [relative(dump) for dump in result["pass_dumps"]]}


def write_json_atomically(path: Path, value: dict) -> None:
    """A reader never sees half a file: write beside it, then rename over it."""
    temporary = path.with_name(f".{path.name}.tmp{os.getpid()}")
    temporary.write_text(json.dumps(value, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)
