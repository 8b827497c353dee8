"""Diagnoses every corpus kernel with a spec through the real `strata-cli diagnose`, at most two
processes under nice, and writes bench/results/corpus-<date>.json and .md.

usage: python bench/corpus/run.py KERNELS.jsonl [--library L] [--limit N] [--guessed-sample N]
       [--cli PATH] [--python VENV_PYTHON] [--timeout S] [--jobs 2]
--guessed-sample N runs every kernel with a captured spec and N of the guessed ones, chosen by a
hash of their names (the same N on every run); the others count as found, not run.
KERNELS.jsonl comes from collect.py. A strata crash is a non-zero exit that is not a reported
compile error, or a signal; a compile failure keeps strata-cli's whole message (`error`) and
Triton's own last line of it (`message`), by which the summary groups the failures.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from importlib import metadata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HIGH = {"high", "critical"}
# strata-cli exit codes that are a reported, named error rather than a failure of strata's own.
REPORTED = {2: "bad_input", 3: "compile_failed"}


def corpus_env(python: str) -> dict:
    """strata-cli's environment for library kernels on this CPU machine: the corpus venv's
    python as the agent's, and flag_gems importable without a driver (site/ answers as the sm_90
    target; nothing launches)."""
    site = os.path.join(os.path.dirname(os.path.abspath(__file__)), "site")
    # One compile per strata-cli process: a warm spare worker would only warm up (import triton,
    # hash libtriton) beside it and be thrown away, so spares are off.
    return dict(os.environ, STRATA_PYTHON=python, QT_QPA_PLATFORM="offscreen", GEMS_VENDOR="nvidia",
                STRATA_CORPUS_PRETEND_DEVICE="1", STRATA_AGENT_WARM_WORKER="0",
                PYTHONPATH=os.pathsep.join(filter(None, [site, os.environ.get("PYTHONPATH")])))


def diagnose(row: dict, cli: str, python: str, timeout: int, work: str) -> dict:
    base = os.path.join(work, f"{row['library']}.{row['kernel']}.{abs(hash(row['file']))}{row.get('variant', '')}")
    with open(base + ".spec.json", "w") as handle:
        json.dump(row["spec"], handle)
    env = corpus_env(python)
    # A frozen copy of strata-cli (cli beside a plugins/ folder) would otherwise look for its
    # plugins in ../lib/strata/plugins, find none and fail every kernel.
    frozen_plugins = os.path.join(os.path.dirname(os.path.abspath(cli)), "plugins")
    if "STRATA_PLUGIN_DIR" not in env and os.path.isdir(frozen_plugins):
        env["STRATA_PLUGIN_DIR"] = frozen_plugins
    command = ["nice", cli, "diagnose", row["file"], "--kernel", row["kernel"],
               "--spec", base + ".spec.json", "--json", base + ".out.json", "--max-level", "3"]
    start = time.monotonic()
    out = {k: row[k] for k in ("library", "module", "kernel", "line", "how")}
    if row.get("variant"):
        out["variant"] = row["variant"]
    if "frontend" in row:  # collect.py --refine: did Triton's front end take the guess
        out["frontend_ok"] = row["frontend"].get("error") is None
    out["file"] = os.path.relpath(row["file"], os.path.dirname(os.path.dirname(row["file"])))
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        out.update(status="timeout", seconds=round(time.monotonic() - start, 2))
        return out
    out["seconds"] = round(time.monotonic() - start, 2)
    out["rc"] = done.returncode
    text = (done.stderr or "") + (done.stdout or "")
    if done.returncode == 0 and os.path.exists(base + ".out.json"):
        result = json.load(open(base + ".out.json"))
        findings = [f for level in result.get("levels", []) for f in level.get("findings", [])]
        compiled = any("compile is available" in step.get("reason", "")
                       for step in result.get("escalation", []))
        out.update(status="diagnosed", compiled=compiled, findings=len(findings),
                   high=[{"rule": f.get("rule"), "severity": f.get("severity"),
                          "title": f.get("title"),
                          "line": (f.get("span") or {}).get("line")}
                         for f in findings if f.get("severity") in HIGH])
        if not compiled:
            out["compile_error"] = _first_error(text, result)
    elif done.returncode < 0:
        out.update(status="crash", signal=-done.returncode, tail=text[-300:])
    elif done.returncode in REPORTED:  # docs/cli.md "Errors and exit codes": a clear error
        out.update(status=REPORTED[done.returncode], error=_reported_error(text))
        out["message"] = _triton_message(out["error"])
    elif done.returncode == 4 and "took longer than" in text:
        # The agent's own compile limit (diagnose's --timeout): Triton's compile of this spec ran
        # past it and strata said so; a named error, not a crash (guessed constexprs that unroll
        # large static loops do this).
        out.update(status="compile_timeout", error=_reported_error(text))
    else:  # 4 (agent or setup failure) or anything undocumented: ours to fix
        out.update(status="crash", tail=text[-300:])
    return out


def _reported_error(text: str) -> str:
    """strata-cli's whole error message (it names file, line and kernel; a Triton front-end error
    goes on over several lines: the location, the source excerpt, then Triton's own message), else
    the first error line. Lines are joined with " | "."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("strata-cli: error:"):
            message = [line[len("strata-cli: error:"):].strip()]
            message += [rest.rstrip() for rest in lines[index + 1:]
                        if rest.strip() and not rest.startswith("strata-cli: warning:")]
            return " | ".join(message)[:2000]
    return _first_error(text, None)


def _triton_message(error: str) -> str:
    """Triton's own message at the end of a reported compile error: the last part that is not the
    source excerpt or the caret line ("NameError('_acos is not defined')")."""
    parts = [part.strip() for part in error.split(" | ") if part.strip()]
    for part in reversed(parts):
        if part.strip("^~ ") and not part.startswith(("at ", "    ")):
            return part[:300]
    return parts[-1][:300] if parts else ""


def _first_error(text: str, result: dict | None) -> str:
    if result:
        for warning in result.get("warnings", []):
            return str(warning)[:2000]
    for line in text.splitlines():
        if "Error" in line or "error:" in line:
            return line.strip()[:2000]
    return text.strip().splitlines()[-1][:2000] if text.strip() else ""


def machine_info() -> dict:
    sys.path.insert(0, os.path.join(ROOT, "bench", "diagnosis"))
    from task_report import machine_info as describe  # noqa: E402 - one description for all bench results
    return describe()


def versions() -> dict:
    out = {}
    for name in ("triton", "torch", "flag-gems", "liger-kernel", "fla-core"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _reason(row: dict) -> str:
    """An error without its file, line and kernel, so that the same cause counts once: Triton's
    own message where the error carries one, else the error's first line."""
    if row.get("message") and row.get("status") == "compile_failed":
        return re.sub(r"/\S+/", "", row["message"])[:160]
    error = row.get("error", "").split(" | ")[0]
    text = error.split(": ", 1)[-1] if error.startswith("/") else error
    return text.split(" (kernel ")[0][:160]


def summary_md(report: dict) -> str:
    counts = report["counts"]
    lines = [f"# Corpus diagnosis {report['date']} (commit {report['commit'][:10]})", ""]
    if report.get("partial"):
        lines += [f"**Partial: {report['partial']['finished']} of {report['partial']['of']} kernels finished** "
                  "(captured specs first, then the guessed sample in hash order).", ""]
    lines += ["Versions: " + ", ".join(f"{k} {v}" for k, v in report["versions"].items()), "",
             "| figure | value |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in counts.items()]
    crashes = [row for row in report["kernels"] if row["status"] in ("crash", "timeout", "compile_timeout")]
    lines += ["", f"## Crashes and timeouts ({len(crashes)})", ""]
    lines += [f"- `{row['kernel']}` {row['file']}:{row['line']} {row['status']}: "
              f"{row.get('error') or (row.get('tail') or '').strip().splitlines()[-1:] or ''}" for row in crashes[:40]]
    for status in ("bad_input", "compile_failed"):
        reasons = collections.Counter(_reason(row) for row in report["kernels"] if row["status"] == status)
        lines += ["", f"## {status} ({sum(reasons.values())}), most common reasons", ""]
        lines += [f"- {count} x {reason}" for reason, count in reasons.most_common(10)]
    by_rule = collections.defaultdict(list)
    for row in report["kernels"]:
        for finding in row.get("high", []):
            by_rule[finding["rule"]].append((row, finding))
    lines += ["", "## High and critical findings by rule", ""]
    for rule, items in sorted(by_rule.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"### {rule} ({len(items)}, specs: "
                     f"{collections.Counter(r['how'] for r, _ in items).most_common()})")
        for row, finding in items[:40]:
            lines.append(f"- `{row['kernel']}` {row['file']}:{finding['line']} "
                         f"[{finding['severity']}] {finding['title']}")
        if len(items) > 40:
            lines.append(f"- ... {len(items) - 40} more in the JSON")
        lines.append("")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("kernels")
    parser.add_argument("--library", action="append")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--guessed-sample", type=int, default=-1)
    parser.add_argument("--cli", default="/work/main/build/bin/strata-cli")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--timeout", type=int, default=180)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    parser.add_argument("--name", help="results file stem (default corpus-<date>)")
    parser.add_argument("--cli-commit", help="the commit --cli was built from, when it is a frozen copy "
                                             "(`commit` is the checkout's HEAD when the report is written)")
    parser.add_argument("--resume", nargs="*", default=[],
                        help="results JSON of earlier runs of the same kernels.jsonl with the same --cli: their "
                             "rows count as done and are merged into this report")
    args = parser.parse_args()
    rows, import_errors, found, helpers = [], [], 0, 0
    for line in open(args.kernels):
        row = json.loads(line)
        if "import_error" in row:
            import_errors.append(row["import_error"])
            continue
        if args.library and row.get("library") not in args.library:
            continue
        found += 1
        helpers += bool(row.get("helper"))
        if "spec" in row:
            rows.append(row)
    def spread(row):  # an order over the libraries that does not depend on the files' order
        return hashlib.sha256(f"{row['library']}.{row['module']}.{row['kernel']}".encode()).hexdigest()
    if args.guessed_sample >= 0:
        guessed = sorted((row for row in rows if row["how"] == "guessed"), key=spread)
        rows = [row for row in rows if row["how"] != "guessed"] + guessed[:args.guessed_sample]
    if args.limit:
        rows = sorted(rows, key=spread)[:args.limit]
    work = tempfile.mkdtemp(prefix="strata-corpus-")
    started = time.monotonic()
    done = {}
    for path in args.resume:
        for result in json.load(open(path))["kernels"]:
            done[(result["library"], result["kernel"], result["file"], result.get("variant", ""))] = result
    results = [done[identity(row)] for row in rows if identity(row) in done]
    pending = [row for row in rows if identity(row) not in done]
    # Captured specs first, then the guessed sample in its hash order: a run stopped early (or cut
    # by a deadline) has measured a prefix of the same order, and its partial report says so.
    rows = sorted(rows, key=lambda row: row["how"] != "captured")
    pending = sorted(pending, key=lambda row: row["how"] != "captured")
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(args.jobs, 2)) as pool:
        futures = [pool.submit(diagnose, row, args.cli, args.python, args.timeout, work)
                   for row in pending]
        for index, future in enumerate(concurrent.futures.as_completed(futures), len(results) + 1):
            results.append(future.result())
            print(f"[{index}/{len(rows)}] {results[-1]['kernel']} {results[-1]['status']} "
                  f"{results[-1].get('seconds')}s", flush=True)
            if index % 10 == 0 and index < len(rows):
                write_report(args, rows, results, found, helpers, import_errors, started, partial=True)
    write_report(args, rows, results, found, helpers, import_errors, started, partial=False)
    return 0


def identity(row: dict) -> tuple:
    """A kernels.jsonl row as its result names it (library, kernel, file as diagnose() shortens it,
    variant)."""
    return (row["library"], row["kernel"], os.path.relpath(row["file"], os.path.dirname(os.path.dirname(row["file"]))),
            row.get("variant", ""))


def write_report(args, rows, results, found, helpers, import_errors, started, partial: bool) -> None:
    status = collections.Counter(r["status"] for r in results)
    seconds = sorted(r["seconds"] for r in results if "seconds" in r)
    counts = {"kernels_found": found, "import_errors": len(import_errors), "device_helpers": helpers,
              "specs_captured": sum(r["how"] == "captured" and not r.get("variant") for r in rows),
              "launch_variants": sum(bool(r.get("variant")) for r in rows),
              "specs_guessed": sum(r["how"] == "guessed" for r in rows),
              "guessed_frontend_ok": sum(r["how"] == "guessed" and (r.get("frontend") or {}).get("error") is None
                                         and "frontend" in r for r in rows),
              "run": len(results),
              "compiled": sum(bool(r.get("compiled")) for r in results),
              "diagnosed": status["diagnosed"],
              "kernels_diagnosed": sum(r["status"] == "diagnosed" and r.get("compiled") and not r.get("variant")
                                       for r in results),
              "bad_input": status["bad_input"],
              "compile_failures": status["compile_failed"] + sum(
                  r["status"] == "diagnosed" and not r.get("compiled") for r in results),
              "strata_crashes": status["crash"], "timeouts": status["timeout"],
              "compile_timeouts": status["compile_timeout"],
              "high_findings": sum(len(r.get("high", [])) for r in results),
              "seconds_median": seconds[len(seconds) // 2] if seconds else None,
              "seconds_max": seconds[-1] if seconds else None}
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "src/diagnosis"],
                                capture_output=True, text=True).stdout.strip())
    counts["wall_seconds"] = round(time.monotonic() - started)
    report = {"date": date, "commit": commit, "cli_commit": args.cli_commit, "diagnosis_sources_modified": dirty,
              "machine": machine_info(), "cli": args.cli, "versions": versions(),
              "selection": {"guessed_sample": args.guessed_sample, "library": args.library, "limit": args.limit,
                            "resumed_from": [os.path.basename(path) for path in args.resume]},
              "partial": {"finished": len(results), "of": len(rows)} if partial else None,
              "counts": counts, "import_errors": import_errors, "kernels": results}
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, args.name or f"corpus-{date}")
    json.dump(report, open(path + ".json", "w"), indent=1)
    open(path + ".md", "w").write(summary_md(report))
    if not partial:
        print(json.dumps(counts, indent=1))


if __name__ == "__main__":
    sys.exit(main())
