#!/usr/bin/env bash
# Runs every reader fuzz target for a fixed time and stores the figures (docs/fuzzing.md).
#
#   bench/fuzz/run_fuzzers.sh [SECONDS_PER_TARGET] [JOBS]
#
# SECONDS_PER_TARGET (default 300) is each target's fuzzing time; JOBS (default 1) how many
# targets run at once (each is one process on one core). Configures build-fuzz with clang-22
# when it has not been, builds just the fuzz targets, makes the seeds (make_seeds.py), then runs
# each target on out/fuzz/corpus/<target> (kept between runs) plus its seeds, with its
# dictionary. A crash, leak, hang (-timeout per input) or OOM writes its input to
# out/fuzz/artifacts/<target>/ and the target is restarted for the time left, so one bug does
# not end its run and every finding is counted. Writes bench/results/fuzz-<UTC date>.json
# (STRATA_FUZZ_RESULTS overrides the path), prints a table, exits 1 when anything was found.
#
# Environment: STRATA_FUZZ_BUILD (build dir, default build-fuzz), STRATA_FUZZ_TARGETS (a
# space-separated subset), STRATA_FUZZ_BUILD_JOBS (ninja -j, default 2), STRATA_FUZZ_CLOCK
# (wall, the default, or cpu: SECONDS_PER_TARGET counts the fuzzer's own CPU time, so a long
# run niced beside other work on a small machine still fuzzes for the time it claims).
set -euo pipefail

seconds=${1:-300}
jobs=${2:-1}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here="$root/bench/fuzz"
build=${STRATA_FUZZ_BUILD:-$root/build-fuzz}
fuzz_dir="$root/out/fuzz"
read -r -a targets <<< "${STRATA_FUZZ_TARGETS:-fuzz_mlir_reader fuzz_llvm_ir_reader fuzz_ptx_reader fuzz_sass_reader fuzz_results_json fuzz_spec_json}"
results=${STRATA_FUZZ_RESULTS:-$root/bench/results/fuzz-$(date -u +%F).json}
clock=${STRATA_FUZZ_CLOCK:-wall}
[[ $clock == wall || $clock == cpu ]] || { echo "STRATA_FUZZ_CLOCK must be wall or cpu, not '$clock'" >&2; exit 2; }
fuzzer_options=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1)
# ASAN_OPTIONS is passed through as it is: with the defaults (container-overflow checks on)
# the readers gave no false report against the gcc-built Qt and LLVM (docs/fuzzing.md).
export ASAN_OPTIONS=${ASAN_OPTIONS:-}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

if [[ ! -f "$build/build.ninja" ]]; then
  CC=clang-22 CXX=clang++-22 cmake -S "$root" -B "$build" -G Ninja -DSTRATA_FUZZ=ON \
    -DSTRATA_BUILD_GUI=OFF -DSTRATA_BUILD_TESTS=OFF -DSTRATA_BUILD_BENCH=OFF
fi
cmake --build "$build" -j "${STRATA_FUZZ_BUILD_JOBS:-2}" --target "${targets[@]}"
python3 "$here/make_seeds.py" --out "$fuzz_dir/seeds"

# CPU seconds (user + system) that process $1 has used, from /proc (0 once it is gone).
cpu_seconds_of() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
  # Fields after the ")" that closes the command name: utime is the 12th, stime the 13th.
  read -r -a fields <<< "${stat##*) }"
  echo $(( (fields[11] + fields[12]) / $(getconf CLK_TCK) ))
}

# Runs one fuzzer process for `left` seconds of its clock; prints the CPU seconds it used.
# On the cpu clock the wall limit is far away and the process is stopped with SIGINT (libFuzzer
# then prints its final stats) once its CPU time reaches `left`.
fuzz_once() {
  local target=$1 left=$2 log=$3 wall_limit=$2 pid used=0
  if [[ $clock == cpu ]]; then wall_limit=$((left * 20)); fi
  "$build/bin/$target" -max_total_time="$wall_limit" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -dict="$here/dict/$target.dict" -artifact_prefix="$fuzz_dir/artifacts/$target/" \
    "$fuzz_dir/corpus/$target" "$fuzz_dir/seeds/$target" >> "$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    local now_used
    now_used=$(cpu_seconds_of "$pid")
    if (( now_used > 0 )); then used=$now_used; fi
    if [[ $clock == cpu ]] && (( used >= left )); then kill -INT "$pid" 2>/dev/null || true; fi
  done
  local rc=0
  wait "$pid" || rc=$?
  # SIGINT asked for by the cpu clock is a normal end, not a finding.
  if [[ $clock == cpu ]] && (( used >= left )) && (( rc == 130 || rc == 72 )); then rc=0; fi
  echo "$used $rc"
}

# One target for `seconds`, restarted after each finding with the time that is left.
run_target() {
  local target=$1 started now left restarts=0 spent=0
  local log="$fuzz_dir/logs/$target.log"
  mkdir -p "$fuzz_dir/corpus/$target" "$fuzz_dir/artifacts/$target"
  : > "$log"
  started=$(date +%s)
  while :; do
    now=$(date +%s)
    if [[ $clock == cpu ]]; then left=$((seconds - spent)); else left=$((seconds - (now - started))); fi
    (( left > 0 )) || break
    local run_start=$now used rc
    read -r used rc < <(fuzz_once "$target" "$left" "$log")
    spent=$((spent + used))
    echo "# run_fuzzers: ran $(( $(date +%s) - run_start )) s" >> "$log"
    echo "# run_fuzzers: cpu $used s" >> "$log"
    (( rc == 0 )) && break
    # A target that fails at once (before any input) would spin here; give up on it instead.
    if (( ++restarts > 200 )); then
      echo "# run_fuzzers: $target gave up after $restarts restarts" >> "$log"
      break
    fi
  done
}

mkdir -p "$fuzz_dir/logs"
running=0
for target in "${targets[@]}"; do
  echo "fuzzing $target for $seconds s (log: $fuzz_dir/logs/$target.log)"
  run_target "$target" &
  if (( ++running >= jobs )); then
    wait -n
    running=$((running - 1))
  fi
done
wait

commit=$(git -C "$root" rev-parse --short HEAD)
git -C "$root" diff --quiet HEAD -- src bench/fuzz || commit="$commit+uncommitted"
machine="$(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(. /etc/os-release && echo "$PRETTY_NAME")"
python3 "$here/fuzz_summary.py" --fuzz-dir "$fuzz_dir" --out "$results" --seconds-per-target "$seconds" --clock "$clock" \
  --date "$(date -u +%FT%TZ)" --machine "$machine" --compiler "$(clang++-22 --version | head -1)" \
  --commit "$commit" --options "${fuzzer_options[*]} -dict=bench/fuzz/dict/<target>.dict" \
  --asan-options "$ASAN_OPTIONS" "${targets[@]}"
