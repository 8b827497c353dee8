#!/usr/bin/env bash
# On a GPU host without network: installs the library wheels carried in out/wheels (made here with
# `pip download --no-deps --python-version 3.12 --only-binary=:all: -d out/wheels flag-gems==5.0.2
# liger-kernel==0.8.5 fla-core==0.6.0 pyyaml einops sqlalchemy`), never touching triton or torch.
#   bench/corpus/install_carried_wheels.sh LOG
set -uo pipefail
cd "$(dirname "$0")/../.."
log="${1:-/dev/null}"
python3 -m pip install -q --no-deps --no-index --break-system-packages out/wheels/*.whl > "$log" 2>&1 \
  || python3 -m pip install -q --no-deps --no-index out/wheels/*.whl >> "$log" 2>&1
