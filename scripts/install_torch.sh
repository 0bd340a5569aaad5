#!/usr/bin/env bash
# Install torch, at the version requirements.txt pins, into a Python's environment, from
# PyTorch's own CPU wheel index: PyPI's Linux x86_64 wheel of the same version is the CUDA
# build, which pulls several GB of nvidia-* wheels that a CPU-only grader never uses.
#
#   bash scripts/install_torch.sh PYTHON REQUIREMENTS [PIP INSTALL OPTION...]
#
# TORCH_INDEX_URL chooses the index (default: PyTorch's CPU index); set it to an empty
# value to take torch from pip's default index like any other package. When the chosen
# index cannot be reached, or lacks the pinned version for this Python and platform,
# torch comes from the default index instead, and a line on stderr says so.
# Used by scripts/setup.sh and by the Gradescope zip's setup.sh (which ships a copy).
set -euo pipefail
python=$1
requirements=$2
shift 2  # the rest: options for pip install (scripts/setup.sh: --no-compile)
version=$(sed -nE 's/^torch==([^[:space:]#]+).*/\1/p' "$requirements")
[ -n "$version" ] || { echo "install_torch: no torch==VERSION line in $requirements" >&2; exit 1; }
index=${TORCH_INDEX_URL-https://download.pytorch.org/whl/cpu}
if "$python" -c "import sys, torch; sys.exit(torch.__version__.split('+')[0] != '$version')" \
    2>/dev/null; then
  exit 0  # already there
fi
install=("$python" -m pip install --quiet --disable-pip-version-check "$@")
reachable() {  # the index answers for torch within 15 s (pip alone would retry, then warn)
  "$python" - "$1" <<'PY' >/dev/null 2>&1
import sys, urllib.request
urllib.request.urlopen(sys.argv[1].rstrip("/") + "/torch/", timeout=15).close()
PY
}
if [ -n "$index" ]; then
  if reachable "$index" && "${install[@]}" --index-url "$index" "torch==$version"; then
    exit 0
  fi
  echo "install_torch: torch $version could not be installed from $index (unreachable, or" \
       "without that version for this Python); installing it from pip's default index" \
       "instead, which on Linux x86_64 is the CUDA build (several GB) unless a CPU wheel" \
       "is at hand. TORCH_INDEX_URL chooses another index." >&2
fi
"${install[@]}" "torch==$version"
