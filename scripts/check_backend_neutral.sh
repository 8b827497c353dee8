#!/usr/bin/env bash
# Lists the code files that name NVIDIA specifics (ptx, sass, wgmma, ncu, cuda; any case) outside
# the places allowed to: plugins/nvidia, the agent's NVIDIA module (agent/strata_agent/backends/
# nvidia, once the NVIDIA compile/run/profile code moves there) and the format readers in src/ir.
# Issue #16: no NVIDIA-specific logic may stay in the core.
#
# A REPORT for now: it prints the list and the count and exits 0, because the NVIDIA code (L3
# rules, recipes, ncu parsing, the agent's CUDA path) has not moved behind the plugin interface
# yet. It becomes a gate (exit 1 when the count is not 0) when that move is done: then pass
# --gate, and CI runs it so.
#
# Scanned: tracked C++, Python, shell and CMake files. Not scanned: documentation, test fixtures
# (compiler output is data) and kernel corpora (suites/*/ tasks, bench/diagnosis/{tasks,kernels}):
# kernels written for a GPU are inputs to the product, not its logic.
set -euo pipefail
cd "$(dirname "$0")/.."

gate=0
[ "${1:-}" = "--gate" ] && gate=1

allowed='^(plugins/nvidia/|agent/strata_agent/backends/nvidia/|src/ir/)'
# "ncu" only as a word of its own ("incur" is no Nsight Compute).
pattern='ptx|sass|wgmma|cuda|(^|[^a-z])ncu([^a-z]|$)'

mapfile -t files < <(git ls-files -- '*.cpp' '*.h' '*.py' '*.sh' '*CMakeLists.txt' '*.cmake' \
  | grep -Ev "$allowed" | grep -Ev '^(tests/fixtures/|bench/diagnosis/(tasks|kernels)/)' \
  | awk -F/ '$1 != "suites" || $2 == "tools" || $2 == "tests"' \
  | grep -v '^scripts/check_backend_neutral.sh$')

found=()
for file in "${files[@]}"; do
  [ -f "$file" ] || continue
  if grep -qiE "$pattern" "$file"; then
    found+=("$file")
  fi
done

echo "Files outside plugins/nvidia, the agent's NVIDIA module and src/ir that mention ptx, sass, wgmma, ncu or cuda:"
declare -A per_dir=()
for file in "${found[@]}"; do
  printf '  %s (%s lines)\n' "$file" "$(grep -ciE "$pattern" "$file")"
  top="${file%%/*}"
  [ "$top" = "$file" ] && top="."
  case "$file" in src/*/*|agent/*/*|tests/*/*|ui/*/*) top="$(echo "$file" | cut -d/ -f1-2)";; esac
  per_dir[$top]=$(( ${per_dir[$top]:-0} + 1 ))
done
echo "By folder:"
for dir in $(printf '%s\n' "${!per_dir[@]}" | sort); do
  printf '  %-28s %d\n' "$dir" "${per_dir[$dir]}"
done
echo "Count: ${#found[@]} files (report only until the NVIDIA code moves into plugins/nvidia; then --gate)"
if [ "$gate" = 1 ] && [ "${#found[@]}" -gt 0 ]; then
  exit 1
fi
exit 0
