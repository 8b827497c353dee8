#!/usr/bin/env bash
# Runs every test: the Qt Test suites through ctest (GUI tests offscreen) and the agent's pytest
# suite. Assumes scripts/bootstrap.sh has run (it does so itself when build/ is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d build ] && [ -x .venv/bin/python ] || bash scripts/bootstrap.sh

export STRATA_PYTHON="$PWD/.venv/bin/python"
export QT_QPA_PLATFORM=offscreen
status=0

echo "== C++ (ctest) =="
ctest --test-dir build --output-on-failure -j 2 || status=1

echo "== agent (pytest) =="
# GPU tests skip themselves with a printed reason when no GPU is present.
PYTHONPATH=agent .venv/bin/python -m pytest -q -rs agent/tests || status=1

echo "== suites (pytest: importers, hopper-core structure) =="
.venv/bin/python -m pytest -q suites/tests || status=1

exit $status
