"""Anchors of the planted lines of a task (build_tasks.py): a plain string names exactly one
line; Every(text) names every line that contains text (a pattern repeated in several loops)."""
from __future__ import annotations


class Every(str):
    """An anchor that matches every line containing it (at least one)."""


def lines_of(text: str, anchor: str, task: str) -> list[int]:
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if anchor in line]
    if isinstance(anchor, Every):
        if not hits:
            raise SystemExit(f"{task}: anchor {anchor!r} found nowhere")
        return hits
    if len(hits) != 1:
        raise SystemExit(f"{task}: anchor {anchor!r} found on lines {hits}, need exactly one")
    return hits
