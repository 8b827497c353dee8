#!/usr/bin/env bash
# The gate of issue #16: no NVIDIA-specific logic outside plugins/nvidia, the agent's NVIDIA module
# (agent/strata_agent/backends/nvidia) and the format readers in src/ir.
#
# Scans the tracked code files (C++, Python, shell, CMake) for the NVIDIA words: ptx, sass, wgmma,
# ncu, cuda. Every other file that names one must be listed in scripts/backend-neutral-exceptions.txt
# with a category and a one-line reason:
#   format     names a stage format or reads/prints an NVIDIA format as data (the Stage enum, the
#              highlighters, the ptxas figures a compile result carries, a device string)
#   test-data  a test of the NVIDIA plugin or on NVIDIA fixtures
#   bench-gpu  a GPU benchmark or measurement driver
#   to-move    NVIDIA logic that still has to move behind the plugin interface: known debt
# Fails (exit 1) on a file that names the words and is not listed (it prints a line to paste, to be
# checked), on a listed file that no longer names them or no longer exists (stale entry), on a
# listed file inside the allowed places, and on an entry without a known category or a reason.
# Prints the count per category. `--list` prints every listed file that matched as well.
#
# Not scanned: documentation, test fixtures (compiler output is data) and kernel corpora (suites/*/
# tasks, bench/diagnosis/{tasks,kernels}) and measured results (bench/results: stores, candidate
# files a run wrote): kernels written for a GPU are inputs or outputs, not logic.
set -euo pipefail
cd "$(dirname "$0")/.."

exceptions="${BACKEND_NEUTRAL_EXCEPTIONS:-scripts/backend-neutral-exceptions.txt}"  # another list: to test the check
list=0
[ "${1:-}" = "--list" ] && list=1

allowed='^(plugins/nvidia/|agent/strata_agent/backends/nvidia/|src/ir/)'
# ptx, wgmma and cuda in any case; sass and ncu case-sensitively, as a word or a camel-case part,
# so that "namesAssignedBy" is no SASS and "incur" no Nsight Compute while "compactSass" and
# "NcuSection" are.
words_any_case='ptx|wgmma|cuda'
words_sass='(^|[^[:alpha:]])sass|Sass|SASS'
words_ncu='(^|[^[:alpha:]])ncu([^a-z]|$)|Ncu|NCU'

mentions() {
  grep -qiE "$words_any_case" "$1" || grep -qE "$words_sass|$words_ncu" "$1"
}

# Which of the words a file names, for the line to paste: "ptx, sass".
words_in() {
  local found=()
  grep -qi 'ptx' "$1" && found+=(ptx)
  grep -qE "$words_sass" "$1" && found+=(sass)
  grep -qi 'wgmma' "$1" && found+=(wgmma)
  grep -qE "$words_ncu" "$1" && found+=(ncu)
  grep -qi 'cuda' "$1" && found+=(cuda)
  local IFS=,
  echo "${found[*]}" | sed 's/,/, /g'
}

# A first guess at the category of an unlisted file; whoever pastes the line checks it.
guess_category() {
  case "$1" in
    tests/*|*/tests/*) echo test-data ;;
    bench/*) echo bench-gpu ;;
    *) echo to-move ;;
  esac
}

mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cpp' '*.h' '*.py' '*.sh' '*CMakeLists.txt' '*.cmake' \
  | grep -Ev "$allowed" | grep -Ev '^(tests/fixtures/|bench/diagnosis/(tasks|kernels)/|bench/results/)' \
  | awk -F/ '$1 != "suites" || $2 == "tools" || $2 == "tests"' \
  | grep -v '^scripts/check_backend_neutral.sh$')

declare -A matched=()
for file in "${files[@]}"; do
  [ -f "$file" ] && mentions "$file" && matched[$file]=1
done

declare -A category_of=() per_category=()
failures=0
line_number=0
while IFS= read -r line || [ -n "$line" ]; do
  line_number=$((line_number + 1))
  [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
  read -r path category reason <<< "$line"
  where="$exceptions:$line_number"
  case "$category" in
    format|test-data|bench-gpu|to-move) ;;
    *) echo "$where: $path: unknown category '$category' (format, test-data, bench-gpu, to-move)"; failures=$((failures + 1)); continue ;;
  esac
  if [ -z "${reason// }" ]; then
    echo "$where: $path: no reason given"; failures=$((failures + 1)); continue
  fi
  if [ -n "${category_of[$path]:-}" ]; then
    echo "$where: $path: listed twice"; failures=$((failures + 1)); continue
  fi
  category_of[$path]=$category
  if [[ "$path" =~ $allowed ]]; then
    echo "$where: stale: $path is in a place allowed to name NVIDIA specifics; remove the entry"
    failures=$((failures + 1))
  elif [ ! -f "$path" ]; then
    echo "$where: stale: $path no longer exists; remove the entry"
    failures=$((failures + 1))
  elif [ -z "${matched[$path]:-}" ]; then
    echo "$where: stale: $path no longer names ptx, sass, wgmma, ncu or cuda; remove the entry"
    failures=$((failures + 1))
  else
    per_category[$category]=$(( ${per_category[$category]:-0} + 1 ))
    [ "$list" = 1 ] && printf '  %-9s %s\n' "$category" "$path"
  fi
done < "$exceptions"

unlisted=()
for file in $(printf '%s\n' "${!matched[@]}" | sort); do
  [ -z "${category_of[$file]:-}" ] && unlisted+=("$file")
done
if [ "${#unlisted[@]}" -gt 0 ]; then
  echo "Not listed in $exceptions: ${#unlisted[@]} files name NVIDIA specifics outside plugins/nvidia,"
  echo "the agent's NVIDIA module and src/ir. Move the logic behind the plugin, or add a line (check the"
  echo "category: logic that is not a format, a test or a GPU benchmark is to-move):"
  for file in "${unlisted[@]}"; do
    printf '%s %s names %s (unreviewed)\n' "$file" "$(guess_category "$file")" "$(words_in "$file")"
  done
  failures=$((failures + ${#unlisted[@]}))
fi

total=0
echo "Files outside plugins/nvidia, agent/strata_agent/backends/nvidia and src/ir that name ptx, sass, wgmma, ncu or cuda, by category:"
for category in format test-data bench-gpu to-move; do
  printf '  %-9s %d\n' "$category" "${per_category[$category]:-0}"
  total=$((total + ${per_category[$category]:-0}))
done
printf '  %-9s %d\n' "listed" "$total"
if [ "$failures" -gt 0 ]; then
  echo "FAILED: $failures problems (above)"
  exit 1
fi
echo "OK: every such file is listed with its category"
