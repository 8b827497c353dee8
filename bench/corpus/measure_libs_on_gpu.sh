#!/usr/bin/env bash
# On the H200 host, in one device call: installs the carried library wheels (out/wheels, from
# `pip download --no-deps flag-gems liger-kernel fla-core pyyaml einops sqlalchemy`), writes the
# tuned-libs suite and measures it (bench/corpus/measure_libs.py), diagnosing each task on the
# host when out/host-bundle.tar.xz (packaging/host-bundle.sh) was carried too.
#   OUT=DIR DEADLINE_S=480 ONLY=name,name bench/corpus/measure_libs_on_gpu.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-$PWD/out/libs-measure}"
mkdir -p "$OUT"
bash bench/corpus/install_carried_wheels.sh "$OUT/pip.log"
python3 suites/tuned-libs/generate.py out/tuned-libs ${ONLY:+--only "$ONLY"} > "$OUT/generate.log" 2>&1
export STRATA_AGENT_DIR="$PWD/agent" STRATA_PYTHON="${STRATA_PYTHON:-python3}" PYTHONUNBUFFERED=1
CLI_ARGS=()
if [ -f out/host-bundle.tar.xz ] && tar -C out -xJf out/host-bundle.tar.xz; then
  CLI_ARGS=(--cli "$PWD/out/host-bundle/strata-cli")
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$OUT/nvidia-smi.txt" 2>&1
python3 -c 'import importlib.metadata as m, json; print(json.dumps({p: m.version(p) for p in ("triton", "torch", "flag-gems", "liger-kernel", "fla-core")}))' > "$OUT/versions.json" 2>&1
python3 bench/corpus/measure_libs.py out/tuned-libs "$OUT" --deadline "${DEADLINE_S:-480}" "${CLI_ARGS[@]}" > "$OUT/measure.log" 2>&1
echo "measure_libs exit: $?" >> "$OUT/measure.log"
