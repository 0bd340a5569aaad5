#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image of
# @ASSIGNMENT@. The zip's contents are in /autograder/source.
#
# torch: requirements.txt pins torch==2.13.0. With a CPU wheel bundled in
# wheels/ (python -m autograder build --torch-wheel FILE) that wheel is
# installed. Otherwise install_torch.sh takes it from PyTorch's CPU wheel index
# (about 190 MB, no CUDA; TORCH_INDEX_URL in the environment chooses another),
# and falls back to PyPI, whose Linux x86_64 wheel is the CUDA build (several
# GB of nvidia-* wheels, which run on Gradescope's CPU machines all the same),
# saying so in the build log, when that index cannot be reached.
set -euxo pipefail
cd /autograder/source
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1

apt-get update
# The sandbox's seccomp filter is built with libseccomp: Gradescope's containers
# refuse namespaces, so workers get a uid of their own, Landlock where the host
# kernel has it, and that filter (README.md, "Which sandbox it gets").
apt-get install -y --no-install-recommends libseccomp2
wheel=$(ls wheels/torch-*.whl 2>/dev/null | head -n 1 || true)
if [ -n "$wheel" ]; then
  # A bundled torch wheel (python -m autograder build --torch-wheel) decides
  # the Python version: its cpXY tag. Ubuntu 22.04 has python3.11.
  PY=python$(basename "$wheel" | sed -E 's/.*-cp([0-9])([0-9]+)-.*/\1.\2/')
  apt-get install -y --no-install-recommends "$PY" "$PY-venv"
# Python >= 3.11 with venv: the image's python3 if new enough, else python3.11
# (Ubuntu 22.04, Gradescope's newest base image, has 3.10 and offers 3.11).
elif python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  apt-get install -y --no-install-recommends python3-venv python3-pip
  PY=python3
elif apt-cache show python3.11-venv >/dev/null 2>&1; then
  apt-get install -y --no-install-recommends python3.11 python3.11-venv
  PY=python3.11
else
  echo "setup.sh: no Python >= 3.11 in this image's apt sources;" \
       "pick the Ubuntu 22.04 base image in the autograder settings" >&2
  exit 1
fi

"$PY" -m venv /autograder/venv
/autograder/venv/bin/python -m pip install --upgrade pip
if [ -n "$wheel" ]; then  # the CPU build: requirements' torch==2.13.0 is then satisfied
  /autograder/venv/bin/python -m pip install "$wheel"
else
  bash install_torch.sh /autograder/venv/bin/python requirements.txt
fi
/autograder/venv/bin/python -m pip install -r requirements.txt
/autograder/venv/bin/python -c "import numpy, torch; print('torch', torch.__version__)"

# An unprivileged account for anything that must not run as root. The grader
# itself runs each student worker under a numeric uid of its own, so the
# account is a fallback and a marker, not what the sandbox relies on.
id -u student >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin student

# Hidden tests, reference and config: root only. The venv stays readable,
# since the workers import torch and numpy from it.
chmod -R go-rwx /autograder/source
chmod 0755 /autograder/source/run_autograder
