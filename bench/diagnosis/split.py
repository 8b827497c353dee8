#!/usr/bin/env python3
"""The fixed dev / held-out split of the task benchmark: a task is held out when the first 8 hex
digits of sha256(id), read as an int, are odd. Rules are developed against the dev half only."""
import hashlib
import json
import sys
from pathlib import Path


def split_of(task_id: str) -> str:
    return "heldout" if int(hashlib.sha256(task_id.encode()).hexdigest()[:8], 16) % 2 else "dev"


if __name__ == "__main__":
    manifest = Path(__file__).resolve().parent / "tasks" / "manifest.json"
    for task in json.loads(manifest.read_text())["tasks"]:
        print(f"{split_of(task['id']):8} {task['kind']:8} {task['id']}")
    sys.exit(0)
