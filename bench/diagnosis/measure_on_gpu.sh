#!/usr/bin/env bash
# On the H200 host, in one device call: the fix timings of the task benchmark (measure_fixes.py),
# then `time` and `profile` replies of its tasks (held-out causes first) for the measured scoring
# (`run_tasks.py --measurements DIR`, run back on the CPU machine). Each phase has a deadline so
# the call ends inside the device's limit with what it measured.
#   OUT=DIR FIX_DEADLINE_S=270 REPLY_DEADLINE_S=270 STRATA_COMMIT=$(git rev-parse HEAD) bench/diagnosis/measure_on_gpu.sh
# (the host's copy of the tree has no .git: STRATA_COMMIT names the commit measured)
# Needs out/host-bundle.tar.xz (packaging/host-bundle.sh) for strata-cli.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-$PWD/out/diag-measure}"
mkdir -p "$OUT/replies" out
tar -C out -xJf out/host-bundle.tar.xz || { echo "no host bundle" >&2; exit 2; }
export STRATA_AGENT_DIR="$PWD/agent" STRATA_PYTHON="${STRATA_PYTHON:-python3}" PYTHONUNBUFFERED=1
CLI=out/host-bundle/strata-cli
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$OUT/nvidia-smi.txt" 2>&1

timeout "${FIX_DEADLINE_S:-270}" python3 bench/diagnosis/measure_fixes.py "$OUT/fixes.json" > "$OUT/fixes.log" 2>&1
echo "measure_fixes exit: $?" >> "$OUT/fixes.log"

end=$(( $(date +%s) + ${REPLY_DEADLINE_S:-270} ))
order="$(python3 bench/diagnosis/split.py | awk '$1=="heldout" && $2=="cause" {print $3}')
$(python3 bench/diagnosis/split.py | awk '!($1=="heldout" && $2=="cause") {print $3}')"
for id in $order; do
  [ "$(date +%s)" -ge "$end" ] && { echo "reply deadline reached before $id" >> "$OUT/replies.log"; break; }
  task="bench/diagnosis/tasks/$id.py"
  timeout 60 "$CLI" time "$task" --json --no-store --quiet --candidates triton > "$OUT/replies/$id.timing.json" 2>> "$OUT/replies.log" \
    || { echo "$id: time failed" >> "$OUT/replies.log"; rm -f "$OUT/replies/$id.timing.json"; }
  timeout 120 "$CLI" profile "$task" --json --no-store --quiet > "$OUT/replies/$id.profile.json" 2>> "$OUT/replies.log" \
    || { echo "$id: profile failed" >> "$OUT/replies.log"; rm -f "$OUT/replies/$id.profile.json"; }
done
ls "$OUT/replies" | wc -l >> "$OUT/replies.log"
