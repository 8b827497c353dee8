"""Cells of a profiler's CSV tables (Nsight Compute's, msprof's) as numbers."""
from __future__ import annotations

from typing import Any


def cell_number(text: str) -> Any:
    """An int or float where the cell holds one ("1,024" and "87.5%" too); other text as it is."""
    cleaned = text.replace(",", "").replace("%", "").strip()
    for convert in (int, float):
        try:
            return convert(cleaned)
        except ValueError:
            pass
    return text
