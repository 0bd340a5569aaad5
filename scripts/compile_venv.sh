#!/usr/bin/env bash
# Compile the bytecode of what is installed in a Python's environment, on every core at once:
#   bash scripts/compile_venv.sh PYTHON [PACKAGE]
# (PACKAGE: only that folder of site-packages, e.g. torch).
# scripts/setup.sh and scripts/test.sh install with `pip install --no-compile`: pip compiles
# each package's files one at a time, which was half of a fresh setup's minute on two cores
# (torch alone 13 s). Compiled here, not left to the first import: an environment with
# PYTHONDONTWRITEBYTECODE set would compile torch again in every process. Files already
# compiled are skipped. As with pip, a file that is not Python 3 (some packages ship such
# templates) stays uncompiled and says nothing (exit status 1).
set -euo pipefail
python=$1
site=$("$python" -c "import sysconfig; print(sysconfig.get_path('purelib'))")
"$python" -m compileall -qq -j 0 "$site/${2:-}" || [ $? -eq 1 ]  # 1: some file did not compile
