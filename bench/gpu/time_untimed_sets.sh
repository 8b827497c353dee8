#!/usr/bin/env bash
# On a GPU host: times every candidate set made off-GPU (a folder of task folders, each with
# orig.py first and a MANIFEST.txt) with time_task_files.py --verify, orig.py first so each
# speedup is against the suite task as written. One timing.json per task under $OUT/<task>/.
#   OUT=DIR bench/gpu/time_untimed_sets.sh bench/results/recipes-untimed-2026-12-06c
set -uo pipefail
cd "$(dirname "$0")/../.."
SETS="${1:?usage: time_untimed_sets.sh SETS_DIR}"
OUT="${OUT:-$PWD/out/untimed-sets}"
failed=0
for task_dir in "$SETS"/*/; do
  task=$(basename "$task_dir")
  [ -f "$task_dir/orig.py" ] || { echo "skip $task: no orig.py"; continue; }
  mkdir -p "$OUT/$task"
  others=$(ls "$task_dir"/*.py | grep -v '/orig.py$' | sort)
  echo "== $task"
  python3 bench/gpu/time_task_files.py "$task_dir/orig.py" $others --verify --no-compile --eager \
      --time-cap "${TIME_CAP:-1}" --out "$OUT/$task/timing.json" || failed=1
done
exit $failed
