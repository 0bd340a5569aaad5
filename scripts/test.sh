#!/usr/bin/env bash
# Set up the environment, then run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
stamp=.venv/.test-requirements-installed
if [ ! -f "$stamp" ] || ! cmp -s requirements-test.txt "$stamp"; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-compile \
    -r requirements-test.txt
  # jupyter-events (under jupyter_server) pulls rfc3987-syntax for jsonschema's IRI
  # formats, which no test checks; jsonschema then compiles 38 grammars whenever it is
  # imported, so every process that reads a notebook (nbformat imports jsonschema) took
  # 3.2 s instead of 0.3 s to start. jsonschema skips those formats without it.
  .venv/bin/python -m pip uninstall --quiet --yes rfc3987-syntax
  bash scripts/compile_venv.sh .venv/bin/python
  cp requirements-test.txt "$stamp"
fi
# Debian packages some tests need, installed as root where apt-get exists: chromium for the
# class report's browser test (tests/report/test_report.py); libseccomp2, with which the
# sandbox's Landlock mode (tests/security/test_integrity.py, container-like) builds its
# seccomp filter; Debian's python3.11 with venv, the Python other users can read
# (tests/security/system_python.py); Docker's engine and debootstrap, with which
# `try-zip --docker` is tried in a dockerd of its own on a Debian image made without a
# registry (tests/gradescope/test_try_docker.py); iproute2 and openssl, with which
# tests/cluster/test_hosts.py makes separate hosts speaking TLS. Installed here, before
# the tests start: under pytest-xdist two tests calling apt-get at once would fight over its lock.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ldconfig -p 2>/dev/null | grep libseccomp.so.2 >/dev/null || missing+=(libseccomp2)
/usr/bin/python3.11 -c "import ensurepip" >/dev/null 2>&1 || missing+=(python3.11 python3.11-venv)
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The tests run on pytest-xdist, one worker more than the cores, which keeps the cores busy
# while a worker waits on Docker, a container or a timeout (TEST_WORKERS=N for N, 0 for all
# in this process); tests that share a module- or session-scoped fixture run in one
# worker, the groups with slow tests first (tests/conftest.py).
workers=()
count=${TEST_WORKERS:-$(( $(nproc) + 1 ))}
if [ "$count" != 0 ]; then
  workers=(-n "$count" --dist loadgroup --no-loadscope-reorder)
fi
exec .venv/bin/python -m pytest "${workers[@]}" "$@"
