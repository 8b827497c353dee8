#!/usr/bin/env bash
# The reference of the cluster tests: the checks-only suite run the plain way (one host, one
# store), written to reference.json beside WORK_DIR.
#   local_reference.sh CLI SMOKE_DIR TASKS WORK_DIR
set -euo pipefail
cli="$1" smoke="$2" tasks="$3" work="$4"
python="${STRATA_PYTHON:-python3}"
if ! "$python" -c "import torch" 2>/dev/null; then
  echo "SKIP: $python has no torch (scripts/bootstrap.sh --tests installs it)"
  exit 77
fi
reference="$(dirname "$work")/reference.json"  # not WORK_DIR/..: WORK_DIR itself need not exist
work="$work.$$"  # this run's own folder; the reference is replaced whole (a rename)
trap 'rc=$?; rm -rf "$work"; exit "$rc"' EXIT
mkdir -p "$work"
"$cli" bench "$smoke" --only "$tasks" --interpret --iterations 1 --no-sources \
  --db "$work/local.db" --work-dir "$work/work" --json "$work/reference.json"
mv "$work/reference.json" "$reference"
