#!/usr/bin/env bash
# Set up the environment, then run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The class report's browser test (tests/report/test_report.py) needs Debian's chromium, installed as root.
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# The sandbox's Landlock mode (tests/security/test_integrity.py, container-like) builds its seccomp
# filter with libseccomp.
if ! ldconfig -p 2>/dev/null | grep -q libseccomp.so.2 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libseccomp2 >/dev/null
fi
exec .venv/bin/python -m pytest "$@"
