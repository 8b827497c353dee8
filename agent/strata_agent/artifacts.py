"""Artifact references: path + size + sha256, never the content."""
from __future__ import annotations

import hashlib
from pathlib import Path


def file_ref(path: Path) -> dict:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return {"path": str(path), "size": path.stat().st_size, "sha256": digest.hexdigest()}
