#!/usr/bin/env bash
# On the H200 host: the no-harm run of the optimization loop (#15 item 7). Installs the carried
# library wheels, writes the tuned-libs suite (tasks over flag-gems / liger-kernel ops against
# their torch references) and runs the loop on it with bench/gpu/run_optimize_suite.sh, whose
# environment (BUNDLE, DB, DEADLINE_S, JOBS, ITERATIONS, CANDIDATES, ONLY) applies; carry DB to
# the next call and the run resumes. The loop may never break (every accepted candidate is
# verified) or slow (only significant timed wins are kept) a tuned library kernel: the results'
# per-task speedups say whether it held.
#   OUT=DIR bench/gpu/run_tuned_libs_loop.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-$PWD/out/tuned-libs-loop}"
mkdir -p "$OUT"
bash bench/corpus/install_carried_wheels.sh "$OUT/pip.log"
python3 -c 'import importlib.metadata as m, json; print(json.dumps({p: m.version(p) for p in ("triton", "torch", "flag-gems", "liger-kernel")}))' > "$OUT/versions.json" 2>&1
python3 suites/tuned-libs/generate.py out/tuned-libs > "$OUT/generate.log" 2>&1
OUT="$OUT" bash bench/gpu/run_optimize_suite.sh out/tuned-libs
