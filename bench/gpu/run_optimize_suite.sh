#!/usr/bin/env bash
# On a GPU host: the optimization loop over a suite with the host bundle of strata-cli
# (packaging/host-bundle.sh), the agent from this checkout, results under $OUT.
#   bench/gpu/run_optimize_suite.sh [SUITE_DIR]          (default suites/hopper-core)
# Environment: BUNDLE (default out/host-bundle.tar.xz), DB (the store; carry it to the next call
# and the run resumes where it stopped), DEADLINE_S (the bench gets SIGTERM then: a step that ends
# within 10 s is stored, a longer one is cut (its agent stopped, the candidate left for the resume),
# and the results are written; KILL_AFTER_S later it is killed), DRAIN_S (default 75: that long
# before DEADLINE_S nothing new starts, `--stop-starting-after`, so the steps in flight finish and
# are stored instead of being cut and redone by the next call; 0: no drain), JOBS, ITERATIONS, CANDIDATES, TIME_CAP, ONLY,
# EXTRA_ARGS. Writes $OUT/results.json (schema strata.bench), results.csv, progress.log, bench.db,
# nvidia-smi.txt. Never changes clocks or other GPU settings.
set -uo pipefail
cd "$(dirname "$0")/../.."
SUITE="${1:-suites/hopper-core}"
OUT="${OUT:-$PWD/out/optimize-run}"
BUNDLE="${BUNDLE:-out/host-bundle.tar.xz}"
DB="${DB:-out/bench.db}"
mkdir -p "$OUT" out
tar -C out -xJf "$BUNDLE" || { echo "cannot unpack $BUNDLE" >&2; exit 2; }
export STRATA_AGENT_DIR="$PWD/agent"
export STRATA_PYTHON="${STRATA_PYTHON:-python3}"
# Pass STRATA_GIT_COMMIT from the machine that sent the tree: a copied checkout's .git can lag its files.
export STRATA_GIT_COMMIT="${STRATA_GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"
export PYTHONUNBUFFERED=1

nvidia-smi --query-gpu=name,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu \
    --format=csv > "$OUT/nvidia-smi.txt" 2>&1
ONLY_ARGS=()
[ -n "${ONLY:-}" ] && ONLY_ARGS=(--only "$ONLY")
DRAIN_ARGS=()
DEADLINE="${DEADLINE_S:-420}"
DRAIN="${DRAIN_S:-75}"
[ "$DRAIN" -gt 0 ] && [ "$DEADLINE" -gt "$DRAIN" ] && DRAIN_ARGS=(--stop-starting-after "$((DEADLINE - DRAIN))")
# After SIGTERM each job's agent call gets 10 s (HostConnection::kCancelGraceMs), then its agent is
# stopped; KILL_AFTER_S is the bench's grace before SIGKILL.
timeout --foreground -s TERM -k "${KILL_AFTER_S:-120}" "$DEADLINE" out/host-bundle/strata-cli bench "$SUITE" \
    --db "$DB" --work-dir /tmp/strata-optimize --jobs "${JOBS:-4}" \
    --iterations "${ITERATIONS:-3}" --candidates "${CANDIDATES:-5}" --time-cap "${TIME_CAP:-1}" \
    "${ONLY_ARGS[@]}" "${DRAIN_ARGS[@]}" --json "$OUT/results.json" --csv "$OUT/results.csv" --verbose \
    ${EXTRA_ARGS:-} > "$OUT/summary.txt" 2> "$OUT/progress.log"
status=$?
echo "bench exit status: $status" | tee -a "$OUT/summary.txt"
# The store runs in WAL mode: a killed bench leaves its rows in bench.db-wal. Fold them into
# the database file before copying it (the 2026-12-02 first call lost its rows without this).
# An ablation (EXTRA_ARGS=--ablate-levels) keeps one store per cap beside $DB: DB-L1.db ...
for db in "$DB" "${DB%.db}"-L?.db; do
  [ -f "$db" ] || continue
  python3 - "$db" <<'PY'
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1])
print("wal checkpoint:", sys.argv[1], connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone())
connection.close()
PY
  cp "$db" "$OUT/$(basename "${db/#$DB/bench.db}")"
done
cat "$OUT/summary.txt"
exit 0
