#!/usr/bin/env python3
"""Reads the libFuzzer logs run_fuzzers.sh left (one per target, every restart of the target
appended) and writes the run's figures as JSON (schema "strata.fuzz"), then prints them as a
table. Exit status 1 when any target crashed, leaked, hung past -timeout or ran out of memory.

Figures per target, from libFuzzer's own output:
  seconds      wall seconds over its restarts; cpu_seconds the fuzzer's own user + system time
  executions   sum of stat::number_of_executed_units (-print_final_stats=1) over its restarts
  coverage     the last "cov:" (edges of Strata's instrumented code; Qt and LLVM are not)
  corpus_units the last "corp:" count (inputs libFuzzer kept in memory); corpus_files the
               folder's size after the run (what a next run starts from)
  crashes, leaks, timeouts, ooms   the "Test unit written to <kind>-<sha1>" artifacts it wrote
  starved      timeouts that replay alone, unniced, well inside -timeout: libFuzzer's per-input
               limit is wall time, so an input that waited for a core (a niced run beside other
               work) can pass it without being slow. Each timeout is replayed once here; one that
               hangs again stays a timeout.
"""
import argparse
import json
import os
import subprocess
import pathlib
import re
import sys

UNIT_WRITTEN = re.compile(r"Test unit written to (\S+)")
FINAL_EXECS = re.compile(r"stat::number_of_executed_units:\s*(\d+)")
STATUS = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/", re.M)
RUN_SECONDS = re.compile(r"^# run_fuzzers: ran (\d+) s$", re.M)
CPU_SECONDS = re.compile(r"^# run_fuzzers: cpu (\d+) s$", re.M)
KINDS = {"crash": "crashes", "leak": "leaks", "timeout": "timeouts", "oom": "ooms", "slow-unit": "slow_units"}


REPLAY_TIMEOUT_S = 10  # run_fuzzers.sh's -timeout


def replays_quickly(binary: pathlib.Path, artifact: pathlib.Path) -> bool:
    """True when the input runs to completion alone inside the per-input timeout."""
    if not binary.exists() or not artifact.exists():
        return False
    try:
        done = subprocess.run([str(binary), f"-timeout={REPLAY_TIMEOUT_S}", str(artifact)],
                              capture_output=True, timeout=REPLAY_TIMEOUT_S * 3)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def target_figures(target, log_path, corpus_dir, seeds_dir, binary=None, artifacts_dir=None):
    text = log_path.read_text(errors="replace")
    counts = {name: 0 for name in KINDS.values()}
    counts["starved"] = 0
    artifacts = []
    for unit in UNIT_WRITTEN.findall(text):
        name = pathlib.Path(unit).name
        if name.startswith("timeout-") and binary and replays_quickly(binary, artifacts_dir / name):
            counts["starved"] += 1
            continue
        for prefix, key in KINDS.items():
            if name.startswith(prefix + "-"):
                counts[key] += 1
                if key != "slow_units":
                    artifacts.append(name)
                break
    statuses = STATUS.findall(text)
    seconds = sum(int(s) for s in RUN_SECONDS.findall(text))
    executions = sum(int(n) for n in FINAL_EXECS.findall(text))
    return {
        "target": target,
        "seconds": seconds,
        "cpu_seconds": sum(int(s) for s in CPU_SECONDS.findall(text)),
        "restarts": max(0, len(RUN_SECONDS.findall(text)) - 1),
        "executions": executions,
        "exec_per_sec": round(executions / seconds) if seconds else 0,
        "coverage": int(statuses[-1][1]) if statuses else 0,
        "features": int(statuses[-1][2]) if statuses else 0,
        "corpus_units": int(statuses[-1][3]) if statuses else 0,
        "corpus_files": sum(1 for _ in corpus_dir.iterdir()) if corpus_dir.is_dir() else 0,
        "seeds": sum(1 for _ in seeds_dir.iterdir()) if seeds_dir.is_dir() else 0,
        **counts,
        "artifacts": artifacts,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fuzz-dir", type=pathlib.Path, required=True, help="out/fuzz")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--seconds-per-target", type=int, required=True)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="what --seconds-per-target counted: wall time or the fuzzer's CPU time")
    parser.add_argument("--date", required=True)
    parser.add_argument("--machine", required=True)
    parser.add_argument("--compiler", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--options", required=True, help="the libFuzzer flags every target ran with")
    parser.add_argument("--asan-options", default="")
    parser.add_argument("targets", nargs="+")
    args = parser.parse_args()

    build = pathlib.Path(os.environ.get("STRATA_FUZZ_BUILD") or pathlib.Path(__file__).resolve().parents[2] / "build-fuzz")
    figures = [target_figures(t, args.fuzz_dir / "logs" / f"{t}.log", args.fuzz_dir / "corpus" / t,
                              args.fuzz_dir / "seeds" / t, build / "bin" / t, args.fuzz_dir / "artifacts" / t)
               for t in args.targets]
    failures = sum(f["crashes"] + f["leaks"] + f["timeouts"] + f["ooms"] for f in figures)
    document = {
        "schema": "strata.fuzz",
        "date": args.date,
        "machine": args.machine,
        "compiler": args.compiler,
        "commit": args.commit,
        "seconds_per_target": args.seconds_per_target,
        "clock": args.clock,
        "sanitizers": "address,undefined (-fno-sanitize-recover=undefined), libFuzzer",
        "libfuzzer_options": args.options,
        "asan_options": args.asan_options,
        "targets": figures,
        "total_crashes": sum(f["crashes"] for f in figures),
        "total_failures": failures,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=1) + "\n")

    header = f"{'target':<22}{'s':>6}{'cpu s':>7}{'execs':>11}{'exec/s':>8}{'cov':>7}{'corpus':>8}{'crash':>7}{'leak':>6}{'hang':>6}{'oom':>5}{'starved':>8}"
    print(header)
    print("-" * len(header))
    for f in figures:
        print(f"{f['target']:<22}{f['seconds']:>6}{f['cpu_seconds']:>7}{f['executions']:>11}{f['exec_per_sec']:>8}{f['coverage']:>7}"
              f"{f['corpus_files']:>8}{f['crashes']:>7}{f['leaks']:>6}{f['timeouts']:>6}{f['ooms']:>5}{f['starved']:>8}")
    print(f"written: {args.out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
