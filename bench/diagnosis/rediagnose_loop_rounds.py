#!/usr/bin/env python3
"""Re-diagnoses every round of an optimization-loop run from its store, with today's strata-cli.

The loop stores per round (table opt_rounds) the diagnosis it ranked (`ladder_json`) and the
candidate it diagnosed (`round_json.candidate` -> opt_candidates.source_text), not the raw
`time` / `profile` replies. What L2 read of them is in the stored diagnosis: the duration, the
memory and compute throughput against the ceilings, the gap to the bound, the occupancy (and its
block limits when it was low), the stall samples of every kernel line, the top stall reasons of
each hot line and of the kernel. This script writes those back as a `time` reply and an ncu
`profile` reply (the figures L2 reads, nothing else), then runs

    strata-cli diagnose TASK.py --timing T --profile P --max-level 3 --json -

on the candidate's source (capture-only launch capture at the task's real shapes, no GPU), and
compares the first finding before (stored) and after. Stall reasons a line had beyond its top
three are spread by the kernel's stall mix: an approximation that changes no line's cost.

Usage: rediagnose_loop_rounds.py BENCH_DB [--cli PATH] [--only ROUND_ID ...] [--jobs N]
                                 [--out FILE.json] [--md FILE.md]
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SYMPTOMS = {"L2.hot-line", "L2.stall-mix", "L2.memory-bound", "L2.compute-bound", "L2.latency-bound",
            "L2.low-occupancy", "L2.launch-bound"}
PRECISION = "fp16"       # any key: the synthetic ceilings only carry the stored fractions
CEILING = 1000.0         # GB/s and TFLOP/s of the synthetic ceilings


def metrics(finding: dict) -> dict[str, float]:
    return {e["name"]: e["value"] for e in finding.get("evidence", []) if e.get("kind") == "metric"}


def l2_findings(ladder: dict) -> list[dict]:
    return [f for level in ladder.get("levels", []) if level.get("level") == "L2" for f in level["findings"]]


def bound_metrics(ladder: dict) -> dict[str, float]:
    for finding in l2_findings(ladder):
        if finding["rule"] in ("L2.latency-bound", "L2.memory-bound", "L2.compute-bound", "L2.launch-bound"):
            return metrics(finding)
    return {}


def stall_mix(ladder: dict) -> dict[str, float]:
    """Kernel-level stall reasons in percent (the top four the stall-mix finding kept)."""
    for finding in l2_findings(ladder):
        if finding["rule"] == "L2.stall-mix":
            return {k[len("stall_"):]: v for k, v in metrics(finding).items() if k.startswith("stall_")}
    return {}


def hot_line_stalls(ladder: dict) -> dict[int, dict[str, float]]:
    """Per hot line, its top stall reasons in samples, from the L2.hot-line findings. A hot line
    that folded onto a mechanism left its figures as evidence without its line number; its
    samples are still in `measured.lines`, its reasons are then spread by the kernel's mix."""
    out: dict[int, dict[str, float]] = {}
    for finding in l2_findings(ladder):
        line = finding.get("span", {}).get("line", 0)
        if finding["rule"] != "L2.hot-line" or line <= 0:
            continue
        stalls = {k[len("stall_"):]: v for k, v in metrics(finding).items() if k.startswith("stall_") and k != "stall_samples"}
        out.setdefault(line, {}).update(stalls)
    return out


def line_stalls(samples: float, known: dict[str, float], mix: dict[str, float]) -> dict[str, float]:
    rest = max(0.0, samples - sum(known.values()))
    spread = {r: p for r, p in mix.items() if r not in known}
    total = sum(spread.values())
    out = dict(known)
    for reason, pct in spread.items():
        out[reason] = rest * pct / total if total else 0.0
    if not out and samples > 0:
        out["selected"] = samples
    return out


def profile_reply(ladder: dict, source_path: str) -> dict:
    measured = ladder["measured"]
    kernel = ladder["kernel"]
    b = bound_metrics(ladder)
    sol = {"Duration": {"unit": "us", "value": measured.get("duration_us", b.get("duration_us"))}}
    if "memory_throughput_pct" in b:
        sol["Memory Throughput"] = {"unit": "%", "value": b["memory_throughput_pct"]}
    if "compute_throughput_pct" in b:
        sol["Compute (SM) Throughput"] = {"unit": "%", "value": b["compute_throughput_pct"]}
    sections = {"GPU Speed Of Light Throughput": sol}
    occupancy = measured.get("occupancy")
    if occupancy and occupancy.get("source") == "ncu":
        occ = {"Theoretical Occupancy": {"unit": "%", "value": occupancy["theoretical"] * 100}}
        for finding in l2_findings(ladder):
            if finding["rule"] == "L2.low-occupancy":
                m = metrics(finding)
                for key, name in (("blocks_by_registers", "Block Limit Registers"),
                                  ("blocks_by_shared_memory", "Block Limit Shared Mem"),
                                  ("blocks_by_warps", "Block Limit Warps")):
                    if key in m:
                        occ[name] = {"unit": "block", "value": m[key]}
        sections["Occupancy"] = occ
    mix = stall_mix(ladder)
    hot = hot_line_stalls(ladder)
    lines, total = [], 0.0
    for entry in measured.get("lines", []):
        if entry.get("share", 0) > 0 and not total:
            total = entry["samples"] / entry["share"]
        lines.append({"file": source_path, "function": kernel, "line": entry["line"], "source": "",
                      "stall_samples": entry["samples"], "instructions_executed": 0,
                      "stalls": line_stalls(entry["samples"], hot.get(entry["line"], {}), mix)})
    view = {"kernel": kernel, "columns": [], "cost_column": "Warp Stall Sampling (All Samples)",
            "instruction_count": 0, "lines": lines, "top_instructions": [],
            "total_stall_samples": total or sum(line["stall_samples"] for line in lines)}
    ncu_kernel = {"id": 0, "kernel": kernel, "grid": "", "block": "", "sections": sections, "rules": []}
    return {"protocol": 1, "task": "", "kernels": [],
            "ncu": {"status": "ok", "kernels": [ncu_kernel], "source": {"cuda,sass": view}, "sections": [], "files": []}}


def timing_reply(ladder: dict) -> dict:
    measured = ladder["measured"]
    b = bound_metrics(ladder)
    duration_us = measured.get("duration_us", b.get("duration_us"))
    estimate = {"precision_ceiling": PRECISION, "bound": ladder["measured"].get("bound") or "unknown"}
    if "memory_throughput_pct" in b:
        estimate["achieved_gbs"] = b["memory_throughput_pct"] / 100 * CEILING
    if "compute_throughput_pct" in b:
        estimate["achieved_tflops"] = b["compute_throughput_pct"] / 100 * CEILING
    if measured.get("gap_to_roofline") is not None:
        estimate["sol_pct"] = (1 - measured["gap_to_roofline"]) * 100
    candidate = {"median_ms": duration_us / 1000 if duration_us else None, "error": None, "n": 1}
    return {"protocol": 1, "candidates": {"triton": candidate},
            "roofline": {"ceilings": {"copy_bandwidth_gbs": CEILING, "matmul_tflops": {PRECISION: CEILING}},
                         "per_candidate": {"triton": estimate}}}


def first_of(ranking: list[dict]) -> dict:
    if not ranking:
        return {}
    top = ranking[0]
    share = top.get("gap_share") or {}
    return {"rule": top.get("examines") or top["rule"], "severity": top["severity"], "line": top["line"],
            "title": top.get("title", ""), "share": share.get("share"), "share_estimate": share.get("estimate")}


def rediagnose(row: dict, cli: str, env: dict) -> dict:
    ladder = json.loads(row["ladder_json"])
    result = {"round": row["id"], "task": row["task"], "iteration": row["iteration"], "kernel": ladder["kernel"],
              "before": first_of(ladder.get("ranking", []))}
    with tempfile.TemporaryDirectory(prefix="strata-rediagnose-") as tmp:
        source = Path(tmp) / Path(ladder["source_path"]).name
        source.write_text(row["source_text"])
        timing, profile = Path(tmp) / "t.json", Path(tmp) / "p.json"
        timing.write_text(json.dumps(timing_reply(ladder)))
        profile.write_text(json.dumps(profile_reply(ladder, str(source))))
        proc = subprocess.run([cli, "diagnose", str(source), "--timing", str(timing), "--profile", str(profile),
                               "--max-level", "3", "--json", "-"], capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        result["error"] = (proc.stderr or proc.stdout)[-800:]
        return result
    reply = json.loads(proc.stdout)
    for entry in reply.get("kernels", []):
        diagnosis = entry.get("diagnosis", {})
        if diagnosis.get("kernel") == ladder["kernel"]:
            result["after"] = first_of(diagnosis.get("ranking", []))
            result["after_top3"] = [first_of(diagnosis["ranking"][i:]) for i in range(min(3, len(diagnosis["ranking"])))]
            return result
    result["error"] = f"no diagnosis of {ladder['kernel']} in the reply"
    return result


def rounds(db: Path, only: list[int] | None) -> list[dict]:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    rows = con.execute("""select r.id, r.iteration, r.ladder_json, o.task_name as task, c.source_text
                          from opt_rounds r join opt_runs o on o.id = r.run_id
                          join opt_candidates c on c.id = json_extract(r.round_json, '$.candidate')
                          where r.ladder_json is not null order by o.task_name, r.iteration, r.id""").fetchall()
    return [dict(r) for r in rows if not only or r["id"] in only]


def symptom_first(entry: dict) -> bool:
    return entry.get("rule") in SYMPTOMS


def summary(results: list[dict]) -> dict:
    done = [r for r in results if "after" in r]
    count = lambda key: {rule: sum(1 for r in done if r[key].get("rule") == rule)
                         for rule in sorted({r[key].get("rule") for r in done if symptom_first(r[key])})}
    return {"rounds": len(results), "rediagnosed": len(done), "errors": len(results) - len(done),
            "symptom_first_before": sum(symptom_first(r["before"]) for r in done),
            "symptom_first_after": sum(symptom_first(r["after"]) for r in done),
            "symptoms_before": count("before"), "symptoms_after": count("after")}


def markdown(results: list[dict], totals: dict) -> str:
    out = [f"Symptom first: {totals['symptom_first_before']} -> {totals['symptom_first_after']} of "
           f"{totals['rediagnosed']} rounds re-diagnosed ({totals['errors']} errors).", "",
           "| round | task | it | before | after |", "|---|---|---|---|---|"]
    fmt = lambda f: (f"{f.get('severity')} {f.get('rule')} @{f.get('line')}"
                     + (f" ({f['share']:.2f}{' est.' if f.get('share_estimate') else ''})" if f.get("share") is not None else ""))
    for r in results:
        after = fmt(r["after"]) if "after" in r else "error: " + r.get("error", "")[-120:].replace("\n", " ")
        out.append(f"| {r['round']} | {r['task']} | {r['iteration']} | {fmt(r['before'])} | {after} |")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db", type=Path)
    parser.add_argument("--cli", default=str(REPO / "build" / "bin" / "strata-cli"))
    parser.add_argument("--only", type=int, nargs="*")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--md", type=Path)
    args = parser.parse_args()
    env = dict(os.environ)
    env.setdefault("STRATA_PLUGIN_DIR", str(REPO / "build" / "lib" / "strata" / "plugins"))
    rows = rounds(args.db, args.only)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda row: rediagnose(row, args.cli, env), rows))
    totals = summary(results)
    for r in results:
        after = r.get("after", {}).get("rule", "error")
        print(f"{r['round']:>3} {r['task']:<24} {r['iteration']} {r['before'].get('rule'):<24} -> {after}", flush=True)
    print(json.dumps(totals, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"db": str(args.db), "cli": args.cli, "summary": totals, "rounds": results}, indent=1) + "\n")
    if args.md:
        args.md.write_text(markdown(results, totals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
