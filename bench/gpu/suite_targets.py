#!/usr/bin/env python3
"""The #15 targets of a suite run, read from its results.json (schema strata.bench).

    python3 bench/gpu/suite_targets.py RESULTS.json [--compare OLDER.json] [--json OUT.json]

Prints, per target: the figure, the target and whether it is met.
- geomean of best against the faster of eager and torch.compile (target >= 1.15x);
- the tasks whose initial kernel ran below 50% of its roofline: geomean initial -> best (>= 3.0x);
- memory-bound tasks at >= 85% of their roofline (copy bandwidth) with the best kernel (all);
- compute-bound matmul tasks against eager (cuBLAS, plus torch's epilogue ops for fused ones) (>= 0.95x).
With --compare, each figure of an older run beside it (ratios compare across runs on one kind of
device; milliseconds do not).
"""
import argparse
import json
import math
import sys

TARGET_VS_BASELINE = 1.15
TARGET_SLOW_START = 3.0
SLOW_START_PCT = 50.0
TARGET_MEMORY_PCT = 85.0
TARGET_MATMUL_VS_CUBLAS = 0.95


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def initial_roofline_pct(task):
    """The initial kernel's share of the roofline: the best's share scaled by best / initial time."""
    pct, best, initial = task.get("roofline_pct"), task.get("best_ms"), task.get("initial_ms")
    if pct is None or not best or not initial:
        return None
    return pct * best / initial


def faster_baseline_ms(task):
    times = [t for t in (task.get("eager_ms"), task.get("compile_ms")) if t]
    return min(times) if times else None


def finished(tasks):
    return [t for t in tasks if t.get("best_ms") and t.get("status") not in ("failed", "interrupted")]


def targets(results):
    tasks = finished(results.get("tasks", []))
    vs_baseline = geomean([faster_baseline_ms(t) / t["best_ms"] for t in tasks if faster_baseline_ms(t)])
    slow = [t for t in tasks if (initial_roofline_pct(t) or 100.0) < SLOW_START_PCT]
    slow_gain = geomean([t["initial_ms"] / t["best_ms"] for t in slow])
    memory = [t for t in tasks if t.get("bound") == "memory" and t.get("roofline_pct") is not None]
    memory_below = sorted((t for t in memory if t["roofline_pct"] < TARGET_MEMORY_PCT),
                          key=lambda t: t["roofline_pct"])
    matmuls = [t for t in tasks if t.get("category") == "matmul" and t.get("bound") == "compute"
               and t.get("eager_ms")]
    matmul_ratio = {t["task"]: t["eager_ms"] / t["best_ms"] for t in matmuls}
    return {
        "tasks": len(tasks),
        "vs_faster_baseline": {"value": vs_baseline, "target": TARGET_VS_BASELINE,
                               "met": vs_baseline is not None and vs_baseline >= TARGET_VS_BASELINE},
        "slow_start": {"value": slow_gain, "target": TARGET_SLOW_START, "tasks": [t["task"] for t in slow],
                       "met": slow_gain is not None and slow_gain >= TARGET_SLOW_START},
        "memory_bound": {"at_target": len(memory) - len(memory_below), "of": len(memory),
                         "below": {t["task"]: round(t["roofline_pct"], 1) for t in memory_below},
                         "met": not memory_below},
        "matmul_vs_cublas": {"ratios": matmul_ratio, "target": TARGET_MATMUL_VS_CUBLAS,
                             "met": all(r >= TARGET_MATMUL_VS_CUBLAS for r in matmul_ratio.values())},
    }


def fmt(value, unit="x"):
    return "-" if value is None else f"{value:.2f}{unit}"


def report(figures, older=None, out=None):
    out = out or sys.stdout
    def beside(key, field="value"):
        return f" (older run: {fmt(older[key][field])})" if older else ""

    def verdict(entry):
        return "met" if entry["met"] else "not met"

    f = figures
    print(f"{f['tasks']} finished tasks", file=out)
    print(f"vs the faster of eager / torch.compile: {fmt(f['vs_faster_baseline']['value'])}"
          f"{beside('vs_faster_baseline')}; target >= {TARGET_VS_BASELINE}x: "
          f"{verdict(f['vs_faster_baseline'])}", file=out)
    print(f"{len(f['slow_start']['tasks'])} tasks below {SLOW_START_PCT:.0f}% of roofline at the start:"
          f" initial -> best {fmt(f['slow_start']['value'])}{beside('slow_start')};"
          f" target >= {TARGET_SLOW_START}x: {verdict(f['slow_start'])}", file=out)
    memory = f["memory_bound"]
    older_memory = f" (older run: {older['memory_bound']['at_target']} of {older['memory_bound']['of']})" if older else ""
    print(f"memory-bound at >= {TARGET_MEMORY_PCT:.0f}% of copy bandwidth: {memory['at_target']} of "
          f"{memory['of']}{older_memory}; target all: {verdict(memory)}", file=out)
    for name, pct in memory["below"].items():
        print(f"  below: {name} {pct}%", file=out)
    matmul = f["matmul_vs_cublas"]
    print(f"compute-bound matmuls against eager (cuBLAS): target >= {TARGET_MATMUL_VS_CUBLAS}x: "
          f"{verdict(matmul)}", file=out)
    for name, ratio in sorted(matmul["ratios"].items()):
        old = older["matmul_vs_cublas"]["ratios"].get(name) if older else None
        print(f"  {name}: {fmt(ratio)}" + (f" (older run: {fmt(old)})" if older else ""), file=out)


def read_results(path):
    try:
        with open(path) as f:
            results = json.load(f)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not JSON ({error})") from None
    if not isinstance(results, dict) or not isinstance(results.get("tasks"), list):
        raise ValueError(f"{path}: no \"tasks\" list (not a strata.bench results file)")
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--compare", help="an older results.json of the same suite")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args(argv)
    try:
        figures = targets(read_results(args.results))
        older = targets(read_results(args.compare)) if args.compare else None
    except (OSError, ValueError) as error:
        print(f"suite_targets: {error}", file=sys.stderr)
        return 2
    report(figures, older)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"figures": figures, "older": older}, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
