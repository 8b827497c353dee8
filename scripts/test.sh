#!/usr/bin/env bash
# Runs every test: the Qt Test suites through ctest (GUI tests offscreen) and the agent's pytest
# suite. It runs scripts/bootstrap.sh --tests first, which installs whatever is missing (torch
# for the task tests included) and brings the build up to date; on a set-up machine that is a
# few seconds of checks.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --tests

export STRATA_PYTHON="$PWD/.venv/bin/python"
export QT_QPA_PLATFORM=offscreen
status=0

echo "== backend-neutral check (issue #16: NVIDIA names only where scripts/backend-neutral-exceptions.txt allows) =="
bash scripts/check_backend_neutral.sh || status=1

bash scripts/cluster/local-slurm.sh --for-tests || status=1  # the one-node Slurm cluster of tests/cluster (docs/cluster.md)
bash scripts/bootstrap_ascend.sh || status=1  # .venv-ascend before ctest: the Ascend plugin tests compile with it
echo "== C++ (ctest) =="
ctest --test-dir build --output-on-failure -j 2 || status=1

# The same GUI tests on a real X server (Xvfb, the xcb platform): screenshots to look at in
# build/screenshots-xvfb/.
if command -v xvfb-run >/dev/null; then
  echo "== GUI under Xvfb =="
  mkdir -p build/screenshots-xvfb
  for test in tst_screenshot tst_suite_browser tst_diagnosis_panel; do
    STRATA_SCREENSHOT_DIR="$PWD/build/screenshots-xvfb" xvfb-run -a -s "-screen 0 1920x1200x24" \
      env QT_QPA_PLATFORM=xcb "build/bin/$test" -silent || status=1
  done
else
  echo "== GUI under Xvfb: skipped (xvfb-run is not installed) =="
fi

echo "== agent (pytest) =="
# GPU tests skip themselves with a printed reason when no GPU is present.
PYTHONPATH=agent .venv/bin/python -m pytest -q -rs agent/tests || status=1
echo "== agent, Ascend backend (pytest under .venv-ascend) ==" && bash scripts/bootstrap_ascend.sh && PYTHONPATH=agent .venv-ascend/bin/python -m pytest -q -rs agent/tests/ascend || status=1

echo "== suites (pytest: importers, hopper-core structure) =="
.venv/bin/python -m pytest -q -rs suites/tests || status=1  # -rs: the Ascend compile tests print why they skip

echo "== bench tools (pytest: merging result files) =="
.venv/bin/python -m pytest -q bench/tests || status=1

exit $status
