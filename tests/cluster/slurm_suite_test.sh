#!/usr/bin/env bash
# The Slurm test (#17) on the one-node cluster of scripts/cluster/local-slurm.sh: a checks-only
# suite as an array job of two elements (two tasks each), one element cancelled (scancel) while
# it runs a task, the merge after the cut ("part"), the same command submitted again (only the
# cut element runs), and the final merged results equal to the local run's, task by task.
#   slurm_suite_test.sh CLI SMOKE_DIR TASKS REFERENCE_JSON WORK_DIR
set -euo pipefail
cli="$1" smoke="$2" tasks="$3" reference="$4" work="$5"
here="$(cd "$(dirname "$0")" && pwd)"
python="${STRATA_PYTHON:-python3}"
if ! bash "$here/../../scripts/cluster/local-slurm.sh" --check; then
  echo "SKIP: no Slurm cluster answers here (as root, scripts/cluster/local-slurm.sh starts a one-node one)"
  exit 77
fi
if ! "$python" -c "import torch" 2>/dev/null; then
  echo "SKIP: $python has no torch (scripts/bootstrap.sh --tests installs it)"
  exit 77
fi
[ -s "$reference" ] || { echo "FAIL: no reference results $reference (the cluster_local_reference test makes it)"; exit 1; }
# A folder of this run's own: another ctest in the same build tree must not share it.
work="$work.$$"
trap 'rc=$?; [ "$rc" = 0 ] && rm -rf "$work"; exit "$rc"' EXIT
mkdir -p "$work"
cd "$work"
run="$work/run"
submit() {
  "$cli" bench "$smoke" --only "$tasks" --interpret --iterations 1 --no-sources --slurm --array-max 2 \
    --slurm-dir "$run" --json "$work/slurm.json" "$@"
}
status() { "$cli" bench "$smoke" --slurm --status --slurm-dir "$run"; }
fail() {
  echo "FAIL: $*"
  status || true
  tail -n 30 "$run"/logs/*.out 2>/dev/null || true
  exit 1
}
# Waits until no job of this run is left in the queue (the merge job included).
wait_for_jobs() {
  local jobs
  jobs="$("$python" -c 'import json,sys; p=json.load(open(sys.argv[1])); print(" ".join(map(str, p["array_jobs"] + p["merge_jobs"])))' "$run/plan.json")"
  for _ in $(seq 1800); do
    local live=0
    for job in $jobs; do
      squeue --noheader --array --states=all --format='%F %T' | awk -v j="$job" '$1 == j && $2 ~ /PENDING|RUNNING|CONFIGURING|COMPLETING/' | grep -q . && live=1
    done
    [ "$live" = 0 ] && return 0
    sleep 1
  done
  fail "jobs $jobs still in the queue after 30 minutes"
}

submit | tee "$work/submit1.log"
array="$(sed -n 's/^submitted array job \([0-9]*\) (elements 0-1 of 2).*/\1/p' "$work/submit1.log")"
[ -n "$array" ] || fail "the first submission did not submit elements 0-1 of 2"

# Element 0 runs the first two tasks (matmul_fp16 first: six recipe candidates); cancel it once
# the store shows a task of it running with three candidates or more, so that the resumed run has
# finished candidates to keep and cut ones to check again.
cut_pattern="^ +0 ${array}_0 RUNNING +([a-z0-9_]+) running \(([3-9]|[1-9][0-9]+) candidates\)"
for _ in $(seq 1800); do
  status >"$work/status.txt" 2>&1 || true
  grep -Eq "$cut_pattern" "$work/status.txt" && break
  grep -Eq "^ +0 ${array}_0 (COMPLETED|FAILED)" "$work/status.txt" && fail "element 0 ended before it could be cancelled"
  sleep 0.5
done
cat "$work/status.txt"
cut_task="$(sed -nE "s/${cut_pattern}.*/\1/p" "$work/status.txt")"
[ -n "$cut_task" ] || fail "element 0 never ran a task"
scancel "${array}_0"
echo "cancelled ${array}_0"
wait_for_jobs
status | tee "$work/status-after-cut.txt"
grep -Eq "^ +0 ${array}_0 CANCELLED" "$work/status-after-cut.txt" || fail "element 0 is not CANCELLED"
"$python" - "$run/results.json" "$cut_task" <<'PY' || fail "the merge after the cut is wrong"
import json, sys
results = json.load(open(sys.argv[1]))
states = {task["task"]: task["status"] for task in results["tasks"]}
print("after the cut:", results["coverage"], states)
assert results["coverage"] == "part", "a cut run must not merge as complete"
assert states[sys.argv[2]] in ("interrupted", "running"), f"{sys.argv[2]} was cut, yet merged as {states[sys.argv[2]]}"
PY

# The same command again: only the cut element runs; the finished tasks are kept.
submit | tee "$work/submit2.log"
grep -Eq "^submitted array job [0-9]+ \(elements 0 of 2\) .*finished task\(s\) kept" "$work/submit2.log" \
  || fail "the resubmission did not run element 0 alone"
wait_for_jobs
status
cmp -s "$run/results.json" "$work/slurm.json" || fail "the merge job did not write --json's copy"
"$python" - "$run/results.json" <<'PY' || fail "the final merge is not complete"
import json, sys
results = json.load(open(sys.argv[1]))
assert results["coverage"] == "merged", results["coverage"]
assert len(results["merged_from"]) == 2
PY
"$python" "$here/compare_results.py" "$reference" "$run/results.json"

# Nothing left: a third submission submits nothing and merges in place.
submit | tee "$work/submit3.log"
grep -q "has finished: nothing to submit" "$work/submit3.log" || fail "a finished run was submitted again"
