#!/usr/bin/env bash
# Installs the corpus venv: triton 3.6.0 (pinned), torch 2.11, numpy<2.4, and the three Triton
# kernel libraries from PyPI. The libraries are installed with --no-deps so that none of them can
# replace the pinned triton/torch; their pure-python deps are listed here by hand.
#
# usage: bench/corpus/install.sh [VENV] [--reuse SITE_PACKAGES]
#   VENV    target venv (default /work/venv-corpus)
#   TORCH_INDEX=pypi  take torch from PyPI only (no CPU index reachable)
#   --reuse instead of downloading torch/triton again, put an existing site-packages that already
#           holds triton 3.6.0 + torch 2.11 on the venv's path (a .pth file); the libraries still
#           go into the new venv only.
set -euo pipefail
VENV=/work/venv-corpus
REUSE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --reuse) REUSE="$2"; shift 2 ;;
    *) VENV="$1"; shift ;;
  esac
done
# Versions the results were taken with; change them here (the results JSON records what ran).
FLAG_GEMS="flag-gems==5.0.2"
LIGER="liger-kernel==0.8.5"
FLA="fla-core==0.6.0"
PY=${PYTHON:-python3.11}

"$PY" -m venv "$VENV"
PIP="$VENV/bin/python -m pip"
$PIP install -q --upgrade pip
if [ -n "$REUSE" ]; then
  SITE=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  echo "$REUSE" > "$SITE/zz_corpus_base.pth"
else
  # The CPU-only torch wheels live on PyTorch's own index; where only PyPI is reachable
  # (TORCH_INDEX=pypi) PyPI's torch is taken instead (its GPU libraries come along, unused).
  if [ "${TORCH_INDEX:-cpu}" = pypi ]; then
    $PIP install -q "triton==3.6.0" "torch==2.11.*" "numpy<2.4"
  else
    $PIP install -q "triton==3.6.0" "torch==2.11.*" "numpy<2.4" \
        --extra-index-url https://download.pytorch.org/whl/cpu
  fi
fi
# Pure-python deps of the libraries (no triton/torch among them).
$PIP install -q pyyaml packaging einops sqlalchemy
$PIP install -q --no-deps "$FLAG_GEMS" "$LIGER" "$FLA"
"$VENV/bin/python" - <<'PY'
import triton, torch, numpy
assert triton.__version__ == "3.6.0", f"triton was replaced: {triton.__version__}"
assert torch.__version__.startswith("2.11"), torch.__version__
print("ok triton", triton.__version__, "torch", torch.__version__, "numpy", numpy.__version__)
PY
