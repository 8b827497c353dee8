#!/usr/bin/env bash
# Creates .venv-ascend: a second Python venv with triton-ascend (Huawei Ascend NPUs, issue #16).
# triton-ascend's wheel replaces the `triton` package, so it cannot share .venv with NVIDIA's
# triton. It compiles TTIR and ttadapter (Linalg/memref) on any x86-64 CPU; the later stages need
# CANN's bishengir-compile, which is not on PyPI (agent/README.md, "Ascend backend").
# Safe to run again: it installs only what is missing.
#   bash scripts/bootstrap_ascend.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON_BIN="${PYTHON:-python3}"
VENV=.venv-ascend
if [ ! -x "$VENV/bin/python" ]; then
  echo "bootstrap_ascend: creating $VENV with $($PYTHON_BIN --version)"
  "$PYTHON_BIN" -m venv "$VENV"
fi
# The wheel's backend module imports pybind11 (it builds a helper against CANN when one exists).
if ! "$VENV/bin/python" -c "import importlib.metadata as m, pybind11, pytest, triton.backends.ascend, sys; sys.exit(m.version('triton-ascend') != '3.2.0')" 2>/dev/null; then
  echo "bootstrap_ascend: installing triton-ascend==3.2.0 into $VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q "triton-ascend==3.2.0" pybind11 pytest
fi
echo "bootstrap_ascend: ready ($VENV/bin/python, triton-ascend $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("triton-ascend"))'))"
