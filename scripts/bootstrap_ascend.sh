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
# A task file (KernelBench format) imports torch at module level, and the Ascend compile imports
# the file. triton-ascend pins no torch, and torch's wheel pulls NVIDIA's triton, which would
# replace triton-ascend's; so .venv's torch is reached through a .pth that appends .venv's
# site-packages after this venv's own (its `triton` stays triton-ascend). Without .venv (or
# without torch in it) task files are not compiled for Ascend; plain kernel files still are.
MAIN_SITE="$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null || true)"
ASCEND_SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
if [ -n "$MAIN_SITE" ] && [ -d "$MAIN_SITE/torch" ]; then
  echo "$PWD/$(realpath --relative-to="$PWD" "$MAIN_SITE")" > "$ASCEND_SITE/zz-strata-main-venv.pth"
fi
echo "bootstrap_ascend: ready ($VENV/bin/python, triton-ascend $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("triton-ascend"))'))"
