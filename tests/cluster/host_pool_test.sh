#!/usr/bin/env bash
# The host pool's fault test (#17): a checks-only suite over two "hosts" (two agents on this
# machine, reached through tests/cluster/fake-bin/ssh), one of them taken down mid-run: its agents
# are killed while it runs a task and it refuses to start new ones. The run must finish on the
# other host, say that the task went back to the queue, and equal the local run task by task.
# hostA has two GPUs (a stand-in nvidia-smi; the interpreter never touches them): its workers'
# agents must have been started with CUDA_VISIBLE_DEVICES 0 and 1, one each.
#   host_pool_test.sh CLI SMOKE_DIR TASKS REFERENCE_JSON WORK_DIR
set -euo pipefail
cli="$1" smoke="$2" tasks="$3" reference="$4" work="$5"
here="$(cd "$(dirname "$0")" && pwd)"
python="${STRATA_PYTHON:-python3}"
if ! "$python" -c "import torch" 2>/dev/null; then
  echo "SKIP: $python has no torch (scripts/bootstrap.sh --tests installs it)"
  exit 77
fi
[ -s "$reference" ] || { echo "FAIL: no reference results $reference (the cluster_local_reference test makes it)"; exit 1; }
# A folder of this run's own: another ctest in the same build tree must not share it.
work="$work.$$"
trap 'rc=$?; [ "$rc" = 0 ] && rm -rf "$work"; exit "$rc"' EXIT
mkdir -p "$work/ssh"
export FAKE_SSH_DIR="$work/ssh" FAKE_SSH_AGENT_DIR="$here/../../agent" PATH="$here/fake-bin:$PATH"
mkdir -p "$work/ssh/hostA-bin"
cat >"$work/ssh/hostA-bin/nvidia-smi" <<'SMI'
#!/bin/sh
printf 'Stand-in GPU, 9.0, 81559, 580.00\nStand-in GPU, 9.0, 81559, 580.00\n'
SMI
chmod +x "$work/ssh/hostA-bin/nvidia-smi"

"$cli" bench "$smoke" --only "$tasks" --interpret --iterations 1 --no-sources --hosts ssh:hostB,ssh:hostA \
  --db "$work/pool.db" --work-dir "$work/work" --json "$work/pool.json" >"$work/bench.log" 2>&1 &
bench=$!

# hostB is running a task once the store has a running run of it with its initial candidate.
hostb_runs_a_task() {
  "$python" - "$work/pool.db" <<'PY'
import sqlite3, sys
try:
    db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=5)
    row = db.execute("SELECT count(*) FROM opt_runs r WHERE r.host = 'ssh:hostB' AND r.status = 'running' AND "
                     "(SELECT count(*) FROM opt_candidates c WHERE c.run_id = r.id) >= 1").fetchone()
except sqlite3.Error:
    sys.exit(1)
sys.exit(0 if row[0] else 1)
PY
}
for _ in $(seq 1200); do
  hostb_runs_a_task && break
  if ! kill -0 "$bench" 2>/dev/null; then
    cat "$work/bench.log"
    echo "FAIL: the run ended before hostB ran a task"
    exit 1
  fi
  sleep 0.25
done
hostb_runs_a_task || { echo "FAIL: hostB never ran a task"; kill "$bench"; exit 1; }

# Down: no new agent starts, and the running ones die (only processes this test started: each
# pid is checked for this run's FAKE_SSH_DIR in its environment before it is killed).
touch "$work/ssh/hostB.down"
killed=0
while read -r pid _; do
  if [ -r "/proc/$pid/environ" ] && tr '\0' '\n' <"/proc/$pid/environ" | grep -qx "FAKE_SSH_DIR=$work/ssh"; then
    pkill -KILL -P "$pid" || true
    kill -KILL "$pid" && killed=$((killed + 1)) || true
  fi
done <"$work/ssh/hostB.starts"
echo "hostB taken down: $killed agent(s) killed"
[ "$killed" -ge 1 ] || { echo "FAIL: no agent of hostB was running"; kill "$bench"; exit 1; }

status=0
wait "$bench" || status=$?
cat "$work/bench.log"
[ "$status" = 0 ] || { echo "FAIL: bench exited with $status"; exit 1; }
grep -q '^\[host ssh:hostB\] dropped out during .*goes back to the queue' "$work/bench.log" \
  || { echo "FAIL: no task of hostB went back to the queue"; exit 1; }
grep -Eq '\(on ssh:hostA gpu [01]\)$' "$work/bench.log" || { echo "FAIL: hostA finished no task"; exit 1; }
for gpu in 0 1; do
  grep -Eq "^[0-9]+ $gpu\$" "$work/ssh/hostA.starts" || { cat "$work/ssh/hostA.starts"; echo "FAIL: no agent of hostA saw GPU $gpu alone"; exit 1; }
done
if grep -Eqv '^[0-9]+ -$' "$work/ssh/hostB.starts"; then
  echo "FAIL: hostB has no GPU, yet an agent of it was given one"; exit 1
fi
"$python" "$here/compare_results.py" "$reference" "$work/pool.json"
