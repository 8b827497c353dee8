#!/usr/bin/env python3
"""Diagnosis accuracy on the planted-cause benchmark (bench/diagnosis/manifest.json).

Runs the real `strata-cli diagnose KERNEL.py --spec SPEC --json FILE` on every kernel of the
manifest (the local agent compiles it and its counterfactuals; no GPU is needed for the static
levels), then scores the ranking against the planted cause:

- top-1: the first ranked finding names the planted cause (see `matches`);
- top-3: one of the first three does;
- confirmation rate: of the kernels whose cause a spec change can express (their class lists
  `fixes`), how many have a matching finding in the top 3 that a counterfactual confirmed.

Kernels whose cause needs a measurement (`"needs": "measurement"`) are listed but not scored
without a GPU host. Prints a table and writes bench/results/diagnosis-accuracy-<date>.json.

Usage: run_accuracy.py [--cli PATH] [--only ID ...] [--max-compiles N] [--keep DIR] [--no-write]
                       [--require-top1]
--cli takes strata-cli or bench/diagnosis's diagnose_runner (same arguments, no app code).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
from manifest_check import check_manifest, load_manifest  # noqa: E402


def change_kind(change: str) -> str:
    """The kind of change a counterfactual made (spec, or the dot-precision source edit), from its
    description (Counterfactual.cpp)."""
    if "divisible by 16" in change or "16-byte aligned" in change:
        return "divisibility_16"
    if "equal to 1" in change:
        return "equal_to_1"
    if "num_stages" in change:
        return "num_stages"
    if "num_warps" in change:
        return "num_warps"
    if "input precision" in change:
        return "input_precision"
    return "tile" if "halved" in change or "=" in change else "other"


def matches(entry: dict, cause_class: dict, lines: list[int]) -> bool:
    """A ranked finding names the planted cause: its rule (or, for an L4 finding, the rule it
    examines) belongs to the class, it points at a planted line, and a confirmed finding was
    confirmed by a change of the kind the class's cause allows."""
    rule = entry.get("examines") or entry["rule"]
    if rule not in cause_class["rules"] or (lines and entry.get("line") not in lines):
        return False
    fixes = cause_class.get("fixes", [])
    confirmed_by = entry.get("confirmed_by") or []
    if entry.get("status") == "confirmed" and fixes and confirmed_by:
        return any(change_kind(change) in fixes for change in confirmed_by)
    return True


def diagnose(cli: Path, kernel: dict, work: Path, max_compiles: int) -> tuple[dict | None, str, float]:
    out_json = work / f"{kernel['id']}.diagnosis.json"
    command = [str(cli), "diagnose", str(HERE / kernel["source"]), "--kernel", kernel["kernel"],
               "--spec", str(HERE / kernel["spec"]), "--json", str(out_json),
               "--max-compiles", str(max_compiles)]
    started = time.monotonic()
    run = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    elapsed = time.monotonic() - started
    (work / f"{kernel['id']}.txt").write_text(run.stdout + run.stderr, encoding="utf-8")
    if run.returncode != 0 or not out_json.is_file():
        return None, (run.stderr or run.stdout).strip()[-400:], elapsed
    return json.loads(out_json.read_text(encoding="utf-8")), "", elapsed


def score(kernel: dict, cause_class: dict, diagnosis: dict) -> dict:
    ranking = diagnosis.get("ranking", [])
    hits = [i for i, entry in enumerate(ranking) if matches(entry, cause_class, kernel["lines"])]
    first = hits[0] if hits else None
    top3_hits = [ranking[i] for i in hits if i < 3]
    return {
        "top1": first == 0,
        "top3": first is not None and first < 3,
        "rank": None if first is None else first + 1,
        "confirmed": any(entry.get("status") == "confirmed" for entry in top3_hits),
        "top": [{key: entry.get(key) for key in ("rule", "examines", "status", "line", "confirmed_by")}
                for entry in ranking[:3]],
        "ranking_estimate": diagnosis.get("ranking_estimate"),
    }


def triton_version() -> str:
    python = REPO / ".venv" / "bin" / "python"
    probe = subprocess.run([str(python if python.exists() else sys.executable), "-c",
                            "import triton; print(triton.__version__)"], capture_output=True, text=True)
    return probe.stdout.strip() or "unknown"


def git_commit() -> str:
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "src", "bench", "agent"],
                           capture_output=True, text=True)
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def summarize(results: list[dict], classes: dict) -> dict:
    scored = [r for r in results if r.get("scored")]
    confirmable = [r for r in scored if classes[r["cause_class"]].get("fixes")]
    def rate(items, key):
        return round(sum(1 for r in items if r[key]) / len(items), 4) if items else None
    per_class = {}
    for name in classes:
        mine = [r for r in scored if r["cause_class"] == name]
        if mine:
            per_class[name] = {"kernels": len(mine), "top1": sum(r["top1"] for r in mine),
                               "top3": sum(r["top3"] for r in mine),
                               "confirmed": sum(r["confirmed"] for r in mine)}
    return {"scored": len(scored), "top1": rate(scored, "top1"), "top3": rate(scored, "top3"),
            "confirmable": len(confirmable), "confirmation_rate": rate(confirmable, "confirmed"),
            "not_scored": [r["id"] for r in results if not r.get("scored")], "per_class": per_class}


def print_table(results: list[dict], summary: dict) -> None:
    print(f"{'kernel':26} {'class':20} {'top1':>4} {'top3':>4} {'rank':>4} {'conf':>4}  top finding")
    for r in results:
        if not r.get("scored"):
            print(f"{r['id']:26} {r['cause_class']:20} {'-':>4} {'-':>4} {'-':>4} {'-':>4}  {r['why_not_scored']}")
            continue
        top = r["top"][0] if r["top"] else {}
        label = (top.get("examines") or top.get("rule") or "none") + (f" ({top.get('status')})" if top else "")
        print(f"{r['id']:26} {r['cause_class']:20} {'y' if r['top1'] else 'n':>4} {'y' if r['top3'] else 'n':>4} "
              f"{r['rank'] or '-':>4} {'y' if r['confirmed'] else 'n':>4}  {label} @{top.get('line')}")
    print()
    print(f"{'class':20} {'n':>3} {'top1':>5} {'top3':>5} {'conf':>5}")
    for name, row in summary["per_class"].items():
        print(f"{name:20} {row['kernels']:>3} {row['top1']:>5} {row['top3']:>5} {row['confirmed']:>5}")
    print()
    print(f"top-1 {summary['top1']:.1%}  top-3 {summary['top3']:.1%}  over {summary['scored']} kernels; "
          f"confirmation rate {summary['confirmation_rate'] or 0:.1%} over {summary['confirmable']} "
          f"kernels a counterfactual change (spec or dot precision) can fix; not scored: {', '.join(summary['not_scored']) or 'none'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=os.environ.get("STRATA_CLI", str(REPO / "build" / "bin" / "strata-cli")))
    parser.add_argument("--only", nargs="*", default=None, help="kernel ids to run")
    parser.add_argument("--max-compiles", type=int, default=8)
    parser.add_argument("--keep", help="keep the diagnoses and text reports in this folder")
    parser.add_argument("--no-write", action="store_true", help="do not write bench/results")
    parser.add_argument("--require-top1", action="store_true",
                        help="exit 1 unless every scored kernel is right at top-1 (the ctest smoke run)")
    args = parser.parse_args()
    manifest = load_manifest(HERE / "manifest.json")
    problems = check_manifest(manifest, HERE)
    if problems:
        print("manifest problems:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    python = os.environ.get("STRATA_PYTHON", str(REPO / ".venv" / "bin" / "python"))
    if subprocess.run([python, "-c", "import triton"], capture_output=True).returncode != 0:
        print(f"triton is not importable by {python}: no kernel can be compiled", file=sys.stderr)
        return 77
    cli = Path(args.cli)
    if not cli.is_file():
        print(f"no strata-cli at {cli} (build it, or pass --cli)", file=sys.stderr)
        return 2
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="strata-diag-acc-"))
    work.mkdir(parents=True, exist_ok=True)
    classes = manifest["classes"]
    results = []
    for kernel in manifest["kernels"]:
        if args.only and kernel["id"] not in args.only:
            continue
        row = {"id": kernel["id"], "cause_class": kernel["cause_class"], "lines": kernel["lines"]}
        if kernel["needs"] != "static":
            row.update(scored=False, why_not_scored="needs a GPU host (timing), not run statically")
            results.append(row)
            continue
        diagnosis, error, elapsed = diagnose(cli, kernel, work, args.max_compiles)
        row["seconds"] = round(elapsed, 1)
        if diagnosis is None:
            row.update(scored=True, top1=False, top3=False, rank=None, confirmed=False, top=[], error=error)
        else:
            row.update(scored=True, **score(kernel, classes[kernel["cause_class"]], diagnosis))
        print(f"  {kernel['id']}: {'top-1' if row['top1'] else 'top-3' if row['top3'] else 'MISS'} "
              f"({row['seconds']} s){' ' + error if error else ''}", file=sys.stderr, flush=True)
        results.append(row)
    summary = summarize(results, classes)
    print_table(results, summary)
    if not args.no_write and not args.only:
        date = datetime.date.today().isoformat()
        out = REPO / "bench" / "results" / f"diagnosis-accuracy-{date}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"benchmark": "diagnosis-accuracy", "date": date, "device": "cpu-static",
                                   "triton": triton_version(), "commit": git_commit(),
                                   "max_compiles": args.max_compiles, "summary": summary,
                                   "kernels": results}, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    if args.require_top1 and any(r.get("scored") and not r["top1"] for r in results):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
