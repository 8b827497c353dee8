#!/usr/bin/env bash
# On a GPU host (#17): the same small suite run twice with the host bundle of strata-cli, once the
# plain way and once through the host pool with one local host (`--hosts local`), and their
# figures side by side (per task: status, initial and best ms, speedup). Results under $OUT.
#   bench/gpu/run_pool_check.sh [SUITE_DIR] [TASKS]    (defaults: suites/tasks-smoke, 5 tasks)
# Environment: POOL_TIMEOUT (seconds per mode, default 240), JOBS (default 2), EXTRA_ARGS (e.g. --no-baselines).
set -uo pipefail
cd "$(dirname "$0")/../.."
SUITE="${1:-suites/tasks-smoke}"
TASKS="${2:-vector_add,scale_copy,matmul_fp16,softmax,wrong_off_by_one}"
OUT="${OUT:-$PWD/out/pool-check}"
BUNDLE="${BUNDLE:-out/host-bundle.tar.xz}"
mkdir -p "$OUT" out
tar -C out -xJf "$BUNDLE" || { echo "cannot unpack $BUNDLE" >&2; exit 2; }
export STRATA_AGENT_DIR="$PWD/agent" STRATA_PYTHON="${STRATA_PYTHON:-python3}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/nvidia-smi.txt" 2>&1
for mode in plain pool; do
  hosts=(); [ "$mode" = pool ] && hosts=(--hosts local)
  timeout -s TERM "${POOL_TIMEOUT:-240}" out/host-bundle/strata-cli bench "$SUITE" --only "$TASKS" "${hosts[@]}" \
      --db "$OUT/$mode.db" --work-dir "/tmp/strata-pool-check-$mode" --jobs "${JOBS:-2}" --iterations 1 \
      --candidates 3 --time-cap 0.5 ${EXTRA_ARGS:-} --json "$OUT/$mode.json" > "$OUT/$mode.txt" 2>&1
  echo "$mode: exit $?"
done
python3 - "$OUT/plain.json" "$OUT/pool.json" <<'PY' | tee "$OUT/compare.txt"
import json, sys
runs = [{t["task"]: t for t in json.load(open(path))["tasks"]} for path in sys.argv[1:]]
print(f"{'task':20} {'plain':>28} {'pool (--hosts local)':>28}")
for name in sorted(runs[0]):
    cells = []
    for run in runs:
        t = run.get(name, {})
        cells.append(f"{t.get('status','-'):8} {t.get('initial_ms') or 0:7.4f} {t.get('best_ms') or 0:7.4f} {t.get('speedup') or 0:4.2f}x")
        cells[-1] += f" {t.get('wall_s') or 0:5.0f}s"
    print(f"{name:20} {cells[0]:>28} {cells[1]:>28}")
PY
