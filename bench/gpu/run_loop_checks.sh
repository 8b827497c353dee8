#!/usr/bin/env bash
# On the H200 host: the loop on the tasks that test #15's items 1-3 end to end, timed: a starting
# point with torch glue (suites/tasks-smoke/glue_absmax_scale.py), an autotune-over-heuristics
# kernel whose warps come from its config, and an IEEE fp32 dot in a task that allows 2e-2
# (tests/rewrite/recipes/fixtures), or the task files TASKS names. Copies them into one suite folder and runs
# bench/gpu/run_optimize_suite.sh on it (its environment applies); results under $OUT.
#   OUT=DIR bench/gpu/run_loop_checks.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-$PWD/out/loop-checks}"
suite=out/loop-checks-suite
rm -rf "$suite" && mkdir -p "$suite" "$OUT"
# TASKS: other task files to check the same way (the structural recipes' tasks, say).
TASKS="${TASKS:-suites/tasks-smoke/glue_absmax_scale.py tests/rewrite/recipes/fixtures/scale_autotuned_heuristics.py tests/rewrite/recipes/fixtures/matmul_fp32_ieee_loose.py}"
cp $TASKS "$suite/"
OUT="$OUT" bash bench/gpu/run_optimize_suite.sh "$suite"
