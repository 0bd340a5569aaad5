#!/usr/bin/env bash
# Create .venv (once) and install the pinned requirements into it: torch 2.13.0 from
# PyTorch's CPU wheel index (TORCH_INDEX_URL chooses another; scripts/install_torch.sh),
# the rest from pip's default index.
# Usage: source-free; run `bash scripts/setup.sh`, then use .venv/bin/python.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.requirements-installed
if [ ! -f "$stamp" ] || ! cmp -s requirements.txt "$stamp"; then
  # torch first, from PyTorch's CPU wheel index (TORCH_INDEX_URL: scripts/install_torch.sh)
  bash scripts/install_torch.sh .venv/bin/python requirements.txt --no-compile
  # torch's bytecode compiled on one core while pip, on the other, installs the rest
  bash scripts/compile_venv.sh .venv/bin/python torch &
  compiling=$!
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-compile \
    -r requirements.txt
  wait "$compiling"
  bash scripts/compile_venv.sh .venv/bin/python
  cp requirements.txt "$stamp"
fi
