"""Re-diagnoses the kernels whose captured launches gave high or critical findings in a corpus
run, keeping each compile, for review (bench/results/corpus-highs-review-*.md).

usage: python bench/corpus/rediagnose_highs.py RESULTS.json KERNELS.jsonl OUT_DIR [--cli PATH]
       [--only SUBSTRING ...] [--variants]
RESULTS.json is a run.py result (bench/results/corpus-<date>.json), KERNELS.jsonl collect.py's
output with the captured specs. Per kernel, OUT_DIR/<library>.<file>.<kernel>/ gets spec.json,
out.json (the diagnosis at --max-level 3) and compile/ (TTGIR, PTX, SASS, ptxas log, trace;
`strata-cli map OUT_DIR/.../compile --line N` maps a source line to its IR). flag_gems' generated
files carry a process id in their names (index_add_rank_1_pid_N.py), which is ignored when matching.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import corpus_env  # noqa: E402

VENV_PYTHON = "/work/venv-corpus/bin/python"


def stable_name(path: str) -> str:
    return re.sub(r"_pid_\d+", "", path)


def relative_file(path: str) -> str:
    return os.path.relpath(path, os.path.dirname(os.path.dirname(path)))


def kernels_with_highs(results: dict) -> set[tuple[str, str, str]]:
    return {(k["library"], k["kernel"], stable_name(k["file"])) for k in results["kernels"]
            if k["how"] == "captured" and k.get("high")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("kernels")
    parser.add_argument("out")
    parser.add_argument("--cli", default="/work/main/build/bin/strata-cli")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--variants", action="store_true",
                        help="diagnose the launch variants (drive_ops' dim=0 calls) of those kernels instead")
    args = parser.parse_args()
    wanted = kernels_with_highs(json.load(open(args.results)))
    env = dict(corpus_env(VENV_PYTHON), STRATA_AGENT_DIR=os.environ.get(
        "STRATA_AGENT_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "agent")))
    for line in open(args.kernels):
        row = json.loads(line)
        if row.get("how") != "captured" or bool(row.get("variant")) != args.variants:
            continue
        rel = relative_file(row["file"])
        if (row["library"], row["kernel"], stable_name(rel)) not in wanted:
            continue
        name = f"{row['library']}.{stable_name(rel).replace('/', '_')[:-3]}.{row['kernel']}"
        if row.get("variant"):
            name += f".{row['variant']}"
        if args.only and not any(part in name for part in args.only):
            continue
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "spec.json"), "w") as handle:
            json.dump(row["spec"], handle, indent=1)
        command = ["nice", args.cli, "diagnose", row["file"], "--kernel", row["kernel"],
                   "--spec", os.path.join(folder, "spec.json"), "--json", os.path.join(folder, "out.json"),
                   "--max-level", "3", "--out", os.path.join(folder, "compile")]
        start = time.monotonic()
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        print(name, done.returncode, round(time.monotonic() - start, 1), flush=True)
        if done.returncode:
            print(done.stderr[-500:], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
