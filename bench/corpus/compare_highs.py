"""Counts the high / critical findings of a rediagnose_highs.py run by the verdicts of the review
(bench/results/corpus-highs-review-2026-12-05.md, its verdicts in review-2026-12-05-verdicts.json):
how many judged REAL / UNSURE / FALSE findings are still high, which are new, and, with --before,
which judged findings left high (a REAL one leaving is a loss).

usage: python bench/corpus/compare_highs.py AFTER_DIR [--before BEFORE_DIR] [--json OUT.json]
A finding is matched to the review by kernel, rule, source line and file stem (flag_gems'
generated files carry a process id, ignored). Patterns A1 / A4 share lines; the title's stride
name decides (`*_stride1`, `*_stride_1`: A4).
"""
from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_review():
    review = json.load(open(os.path.join(HERE, "review-2026-12-05-verdicts.json")))
    by_key = collections.defaultdict(list)
    for pattern, items in review["patterns"].items():
        for stem, kernel, rule, line in items:
            by_key[(re.sub(r"_pid_\d+", "", stem), kernel, rule, line)].append(pattern)
    return review["verdicts"], by_key


def pattern_of(folder: str, finding: dict, kernel: str, by_key) -> str:
    line, rule = finding["span"]["line"], finding["rule"]
    name = "_" + re.sub(r"_pid_\d+", "", os.path.basename(folder)).replace("/", "_") + "."
    keys = [k for k in by_key if k[1] == kernel and k[2] == rule and k[3] == line and "_" + k[0] + "." in name]
    if not keys:
        return "NEW"
    options = by_key[keys[0]]
    if len(options) > 1 and rule == "L1.runtime-unit-stride":
        return options[-1] if re.search(r"stride_?1 on", finding["title"]) else options[0]
    return options[0]


def highs(folder_root: str, by_key) -> list[dict]:
    found = []
    for folder in sorted(glob.glob(os.path.join(folder_root, "*"))):
        try:
            result = json.load(open(os.path.join(folder, "out.json")))
        except (OSError, ValueError):
            print("no diagnosis:", folder, file=sys.stderr)
            continue
        for level in result["levels"]:
            for finding in level["findings"]:
                if finding["severity"] not in ("high", "critical"):
                    continue
                found.append({"kernel_folder": os.path.basename(folder), "rule": finding["rule"],
                              "line": finding["span"]["line"], "title": finding["title"],
                              "pattern": pattern_of(folder, finding, result["kernel"], by_key)})
    return found


def summary(found: list[dict], verdicts: dict) -> dict:
    by_verdict = collections.Counter(verdicts.get(f["pattern"], "NEW") for f in found)
    false_like = by_verdict["FALSE"]
    return {"highs": len(found), "by_verdict": dict(by_verdict),
            "by_pattern": dict(collections.Counter(f["pattern"] for f in found)),
            "false_share": round(false_like / len(found), 3) if found else 0.0}


def key(f: dict):
    return (f["kernel_folder"], f["rule"], f["line"], f["pattern"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("after")
    parser.add_argument("--before")
    parser.add_argument("--json")
    args = parser.parse_args()
    verdicts, by_key = load_review()
    after = highs(args.after, by_key)
    report = {"after": summary(after, verdicts), "after_findings": after}
    if args.before:
        before = highs(args.before, by_key)
        report["before"] = summary(before, verdicts)
        left = collections.Counter(map(key, before)) - collections.Counter(map(key, after))
        came = collections.Counter(map(key, after)) - collections.Counter(map(key, before))
        report["left_high"] = [dict(zip(("kernel_folder", "rule", "line", "pattern"), k), verdict=verdicts.get(k[3], "NEW"),
                                    count=n) for k, n in sorted(left.items())]
        report["new_high"] = [dict(zip(("kernel_folder", "rule", "line", "pattern"), k), verdict=verdicts.get(k[3], "NEW"),
                                   count=n) for k, n in sorted(came.items())]
    for name in ("before", "after"):
        if name in report:
            s = report[name]
            print(f"{name}: {s['highs']} highs, by verdict {s['by_verdict']}, judged FALSE {s['false_share']:.0%}")
    for row in report.get("left_high", []):
        print("left high:", row["verdict"], row["pattern"], row["kernel_folder"], row["rule"], row["line"], "x", row["count"])
    for row in report.get("new_high", []):
        print("new high:", row["verdict"], row["pattern"], row["kernel_folder"], row["rule"], row["line"], "x", row["count"])
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(report, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
