#!/usr/bin/env bash
# The main job on the embedded default: set up (scripts/bootstrap.sh), then open the app on the
# bundled sample kernels, compiled by the local agent, with the committed H200 suite results in
# the Suite dock. Without a display it runs the same job
# headless: every sample compiled with strata-cli into out/samples/, with a summary per kernel.
#   bash scripts/strata.sh [SAMPLE]      SAMPLE defaults to matmul.default (see suites/samples)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

export STRATA_PYTHON="$PWD/.venv/bin/python"
sample="${1:-matmul.default}"
# The committed H200 results: the app and the report take the folder and open its newest complete
# file (by each file's "coverage": whole or merged), never a part of a run.
results=bench/results

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec build/bin/strata --sample "$sample" ${results:+--results "$results"}
fi

echo "strata: no display; compiling every bundled sample headless into out/samples/"
mkdir -p out/samples
for spec in suites/samples/*.spec.json; do
  name="$(basename "$spec" .spec.json)"              # e.g. matmul.default
  kernel_file="suites/samples/${name%%.*}.py"
  kernel="$("$STRATA_PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"])' "$spec")"
  echo "== $name"
  build/bin/strata-cli compile "$kernel_file" --kernel "$kernel" --spec "$spec" \
      --out "out/samples/$name" --db out/strata.db
done
echo "strata: open one in the app with: build/bin/strata out/samples/$sample"
if [ -n "$results" ]; then
  build/bin/strata-cli report "$results" --out out/suite-report.html
  echo "strata: the newest complete H200 suite results as a report: out/suite-report.html"
fi
