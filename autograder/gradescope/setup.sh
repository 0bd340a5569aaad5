#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image of
# @ASSIGNMENT@. The zip's contents are in /autograder/source.
#
# torch: requirements.txt pins torch==2.13.0. With a CPU wheel bundled in
# wheels/ (python -m autograder build --torch-wheel FILE) that wheel is
# installed: about 190 MB, no CUDA. Without one, PyPI's Linux x86_64 wheel is
# the CUDA build: it pulls the nvidia-* wheels (several GB) and runs on
# Gradescope's CPU-only machines, at the cost of a larger image and build.
set -euxo pipefail
cd /autograder/source
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1

apt-get update
# The sandbox's seccomp filter is built with libseccomp; Gradescope's containers
# most likely refuse namespaces, so workers get Landlock + seccomp (README.md).
apt-get install -y --no-install-recommends libseccomp2
wheel=$(ls wheels/torch-*.whl 2>/dev/null | head -n 1 || true)
if [ -n "$wheel" ]; then
  # A bundled torch wheel (python -m autograder build --torch-wheel) decides
  # the Python version: its cpXY tag. Ubuntu 22.04 has python3.11.
  PY=python$(basename "$wheel" | sed -E 's/.*-cp([0-9])([0-9]+)-.*/\1.\2/')
  apt-get install -y --no-install-recommends "$PY" "$PY-venv"
# Python >= 3.11 with venv (Ubuntu 24.04 images ship 3.12; 22.04 has python3.11).
elif python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  apt-get install -y --no-install-recommends python3-venv python3-pip
  PY=python3
elif apt-cache show python3.11-venv >/dev/null 2>&1; then
  apt-get install -y --no-install-recommends python3.11 python3.11-venv
  PY=python3.11
else
  echo "setup.sh: no Python >= 3.11 in this image's apt sources;" \
       "pick an Ubuntu 22.04 or newer base image in the autograder settings" >&2
  exit 1
fi

"$PY" -m venv /autograder/venv
/autograder/venv/bin/python -m pip install --no-cache-dir --upgrade pip
if [ -n "$wheel" ]; then  # the CPU build: requirements' torch==2.13.0 is then satisfied
  /autograder/venv/bin/python -m pip install --no-cache-dir "$wheel"
fi
/autograder/venv/bin/python -m pip install --no-cache-dir -r requirements.txt
/autograder/venv/bin/python -c "import numpy, torch; print('torch', torch.__version__)"

# An unprivileged account for anything that must not run as root. The grader
# itself runs each student worker under a numeric uid of its own, so the
# account is a fallback and a marker, not what the sandbox relies on.
id -u student >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin student

# Hidden tests, reference and config: root only. The venv stays readable,
# since the workers import torch and numpy from it.
chmod -R go-rwx /autograder/source
chmod 0755 /autograder/source/run_autograder
