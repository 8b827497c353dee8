#!/usr/bin/env bash
# On the H200 host, in one device call, for the task ids in $IDS (new tasks of the benchmark):
# the fix timings (measure_fixes.py: a cause counts once its fix is >= 1.15x) and the agent's
# triton-only `time` and `profile` replies (bench/corpus/measure_libs.py), which
# `run_tasks.py --measurements DIR` reads back on the CPU machine. No host bundle needed.
#   OUT=DIR IDS="a b c" COMMIT=$(git rev-parse HEAD) bench/diagnosis/measure_new_on_gpu.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-$PWD/out/diag-new}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 STRATA_AGENT_DIR="$PWD/agent" STRATA_PYTHON="${STRATA_PYTHON:-python3}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$OUT/nvidia-smi.txt" 2>&1
# FIX_DEADLINE_S=0 takes replies only (tasks whose fixes were timed before, traps, controls)
if [ "${FIX_DEADLINE_S:-230}" -gt 0 ]; then
  # shellcheck disable=SC2086  # IDS is a list of ids
  timeout "${FIX_DEADLINE_S:-230}" python3 bench/diagnosis/measure_fixes.py "$OUT/fixes.json" --only $IDS \
    --kinds cause --commit "${COMMIT:-unknown}" > "$OUT/fixes.log" 2>&1
  echo "measure_fixes exit: $?" >> "$OUT/fixes.log"
fi
# shellcheck disable=SC2086
timeout "$(( ${REPLY_DEADLINE_S:-270} + 30 ))" python3 bench/corpus/measure_libs.py bench/diagnosis/tasks "$OUT/r" \
  --deadline "${REPLY_DEADLINE_S:-270}" --only $IDS --candidates triton --no-verify > "$OUT/replies.log" 2>&1
echo "replies exit: $?" >> "$OUT/replies.log"
tar -C "$OUT" -czf "$OUT/results.tgz" r fixes.json fixes.log replies.log nvidia-smi.txt 2>/dev/null
