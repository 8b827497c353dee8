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
# space-separated subset), STRATA_FUZZ_BUILD_JOBS (ninja -j, default 2).
set -euo pipefail

seconds=${1:-300}
jobs=${2:-1}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here="$root/bench/fuzz"
build=${STRATA_FUZZ_BUILD:-$root/build-fuzz}
fuzz_dir="$root/out/fuzz"
read -r -a targets <<< "${STRATA_FUZZ_TARGETS:-fuzz_mlir_reader fuzz_llvm_ir_reader fuzz_ptx_reader fuzz_sass_reader fuzz_results_json fuzz_spec_json}"
results=${STRATA_FUZZ_RESULTS:-$root/bench/results/fuzz-$(date -u +%F).json}
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

# One target for `seconds`, restarted after each finding with the time that is left.
run_target() {
  local target=$1 started now left restarts=0
  local log="$fuzz_dir/logs/$target.log"
  mkdir -p "$fuzz_dir/corpus/$target" "$fuzz_dir/artifacts/$target"
  : > "$log"
  started=$(date +%s)
  while :; do
    now=$(date +%s)
    left=$((seconds - (now - started)))
    (( left > 0 )) || break
    local run_start=$now rc=0
    "$build/bin/$target" -max_total_time="$left" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -dict="$here/dict/$target.dict" -artifact_prefix="$fuzz_dir/artifacts/$target/" \
      "$fuzz_dir/corpus/$target" "$fuzz_dir/seeds/$target" >> "$log" 2>&1 || rc=$?
    echo "# run_fuzzers: ran $(( $(date +%s) - run_start )) s" >> "$log"
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
python3 "$here/fuzz_summary.py" --fuzz-dir "$fuzz_dir" --out "$results" --seconds-per-target "$seconds" \
  --date "$(date -u +%FT%TZ)" --machine "$machine" --compiler "$(clang++-22 --version | head -1)" \
  --commit "$commit" --options "${fuzzer_options[*]} -dict=bench/fuzz/dict/<target>.dict" \
  --asan-options "$ASAN_OPTIONS" "${targets[@]}"
