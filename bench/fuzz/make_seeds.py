#!/usr/bin/env python3
"""Builds each fuzz target's seed corpus from the repository's real files, into
out/fuzz/seeds/<target>/ (out/ is not committed):

  fuzz_mlir_reader     tests/fixtures/**/*.ttir, *.ttgir, passes/*.mlir (triton 3.6.0 output)
                       and tests/ir/mlir/data
  fuzz_llvm_ir_reader  tests/fixtures/**/*.llir
  fuzz_ptx_reader      tests/fixtures/**/*.ptx, tests/ir/native/data/*.ptx
  fuzz_sass_reader     tests/fixtures/**/*.sass, tests/ir/native/data/*.sass
  fuzz_results_json    bench/results/*.json of schema strata.bench (H200 runs), each also cut
                       down to its header and its first 1 and 3 tasks
  fuzz_spec_json       every *.spec.json under tests/ and suites/, and the spec of every
                       fixture compile.json

Files over --max-bytes are left out: libFuzzer sizes its inputs after the largest seed, and a
6 MB LLVM module would make every mutation cost a whole module's parse. Seeds are named by
their content's sha1, so equal files count once and reruns leave the folder as it was.

Usage: make_seeds.py [--out DIR] [--max-bytes N]
"""
import argparse
import hashlib
import json
import pathlib
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"


def globbed(base, *patterns):
    files = []
    for pattern in patterns:
        files.extend(sorted(base.glob(pattern)))
    return files


def results_seeds():
    """Each strata.bench results file whole and cut to its first tasks (valid JSON either way)."""
    seeds = []
    for path in sorted((ROOT / "bench" / "results").glob("*.json")):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(document, dict) or document.get("schema") != "strata.bench":
            continue
        seeds.append(path.read_bytes())
        tasks = document.get("tasks", [])
        for count in (0, 1, 3):
            cut = dict(document, tasks=tasks[:count])
            seeds.append(json.dumps(cut, indent=1).encode())
    return seeds


def spec_seeds():
    seeds = [p.read_bytes() for p in globbed(ROOT, "tests/**/*.spec.json", "suites/**/*.spec.json")]
    for compile_json in sorted(FIXTURES.glob("**/compile.json")):
        spec = json.loads(compile_json.read_text(encoding="utf-8")).get("spec")
        if isinstance(spec, dict):
            seeds.append(json.dumps(spec, indent=2).encode())
    return seeds


def target_seeds():
    native = ROOT / "tests" / "ir" / "native" / "data"
    read = lambda files: [f.read_bytes() for f in files]
    return {
        "fuzz_mlir_reader": read(globbed(FIXTURES, "**/*.ttir", "**/*.ttgir", "**/passes/*.mlir")
                                 + globbed(ROOT / "tests" / "ir" / "mlir" / "data", "*.ttgir", "*.mlir")),
        "fuzz_llvm_ir_reader": read(globbed(FIXTURES, "**/*.llir")),
        "fuzz_ptx_reader": read(globbed(FIXTURES, "**/*.ptx") + globbed(native, "*.ptx")),
        "fuzz_sass_reader": read(globbed(FIXTURES, "**/*.sass") + globbed(native, "*.sass")),
        "fuzz_results_json": results_seeds(),
        "fuzz_spec_json": spec_seeds(),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "out" / "fuzz" / "seeds")
    parser.add_argument("--max-bytes", type=int, default=64 * 1024)
    args = parser.parse_args()
    for target, seeds in target_seeds().items():
        folder = args.out / target
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        kept = {hashlib.sha1(s).hexdigest(): s for s in seeds if 0 < len(s) <= args.max_bytes}
        for name, seed in kept.items():
            (folder / name).write_bytes(seed)
        left_out = sum(1 for s in seeds if len(s) > args.max_bytes)
        print(f"{target}: {len(kept)} seeds, {sum(map(len, kept.values()))} bytes"
              f" ({left_out} over {args.max_bytes} bytes left out)")
        if not kept:
            print(f"{target}: no seeds found", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
