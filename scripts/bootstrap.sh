#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for Strata and builds it:
#   1. Debian packages (Qt 6, QCustomPlot, LLVM 22, SQLite, libcurl, dtl, Xvfb) when missing,
#   2. a Python venv in .venv with triton==3.6.0 (the version the GPU host runs) and pytest
#      (+ torch with its pinned numpy when called with --tests: scripts/test.sh does),
#   3. a CMake/Ninja build in build/.
# Safe to run again: each step skips what is already there.
#   bash scripts/bootstrap.sh [--tests]
set -euo pipefail
cd "$(dirname "$0")/.."
with_test_deps=0
for arg in "$@"; do
  case "$arg" in
    --tests) with_test_deps=1 ;;
    *) echo "bootstrap: unknown argument '$arg' (usage: bootstrap.sh [--tests])" >&2; exit 2 ;;
  esac
done

APT_PACKAGES=(
  build-essential cmake ninja-build git pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  qt6-svg-dev libqt6sql6-sqlite libqcustomplot-dev libgl1-mesa-dev qtkeychain-qt6-dev
  llvm-22-dev libzstd-dev zlib1g-dev libsqlite3-dev libcurl4-openssl-dev libdtl-dev nlohmann-json3-dev
  python3-venv xvfb xauth
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

PYTHON_BIN="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "bootstrap: creating .venv with $($PYTHON_BIN --version)"
  "$PYTHON_BIN" -m venv .venv
fi
if ! .venv/bin/python -c "import triton, pytest, sys; sys.exit(triton.__version__ != '3.6.0')" 2>/dev/null; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q "triton==3.6.0" pytest
fi
# torch is only needed to run tasks (verify/time/profile) and by their tests, which run on the CPU
# through Triton's interpreter; the interpreter fails with numpy >= 2.4, hence the pin. The main
# job does not need it, so only the test command asks for it (a large download, once).
if [ "$with_test_deps" = 1 ] && ! .venv/bin/python -c "import torch, numpy, sys; sys.exit(tuple(map(int, numpy.__version__.split('.')[:2])) >= (2, 4))" 2>/dev/null; then
  echo "bootstrap: installing torch into .venv (large download)"
  .venv/bin/python -m pip install -q "torch==2.11.*" "numpy<2.4"
fi

BUILD_TYPE="${STRATA_BUILD_TYPE:-RelWithDebInfo}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" >/dev/null
cmake --build build -j "$(nproc)"
echo "bootstrap: built into build/ (python: .venv/bin/python)"
