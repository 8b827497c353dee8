#!/usr/bin/env bash
# On a GPU host, from anywhere: runs the agent's GPU tests, then measures the smoke tasks
# (verdicts, launch capture, times against eager / torch.compile, ceilings, SOL, ncu profiles,
# self check, L2 flush effect, crash containment) through a real agent process.
# Writes into $OUT (default bench/results/run-<date>): gpu-tests.log, smoke-results.json,
# nvidia-smi.txt; and copies the results JSON to bench/results/<device>-<driver>-<date>.json.
# Never changes clocks or other GPU settings.
set -uo pipefail
cd "$(dirname "$0")/../.."
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${OUT:-$PWD/bench/results/run-$STAMP}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export PYTHONPATH="$PWD/agent${PYTHONPATH:+:$PYTHONPATH}"
export STRATA_GIT_COMMIT="${STRATA_GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"

nvidia-smi --query-gpu=name,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu \
    --format=csv 2>&1 | tee "$OUT/nvidia-smi.txt"
(command -v ncu && ncu --version) 2>&1 | tail -2 | tee -a "$OUT/nvidia-smi.txt"

timeout "${GPU_TESTS_TIMEOUT_S:-230}" python3 -m pytest -q -p no:cacheprovider agent/tests/gpu \
    2>&1 | tee "$OUT/gpu-tests.log"
echo "gpu tests exit status: ${PIPESTATUS[0]}" | tee -a "$OUT/gpu-tests.log"

python3 bench/gpu/measure_smoke.py --out "$OUT/smoke-results.json" \
    --deadline-s "${MEASURE_DEADLINE_S:-330}" 2>"$OUT/measure.stderr.log"
echo "measure exit status: $?"

DEVICE="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 \
    | tr ' ,' '_-' | tr -s '_-')"
cp "$OUT/smoke-results.json" "bench/results/${DEVICE:-gpu}-$STAMP.json" 2>/dev/null || true
