"""Does scripts/install_torch.sh (run by scripts/setup.sh and by the Gradescope
zip's setup.sh) take torch from PyTorch's CPU index, fall back to pip's default
index with a clear line, and let TORCH_INDEX_URL choose? Run against a stand-in
Python that records what pip is asked, so nothing is downloaded."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from autograder import paths

SCRIPT = paths.ROOT / "scripts" / "install_torch.sh"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
PIN = re.search(r"^torch==\S+", (paths.ROOT / "requirements.txt").read_text(), re.M).group()
FAKE_PYTHON = """#!/usr/bin/env bash
# -c ...: is torch there?  - URL: can the index be reached?  -m pip ...: recorded
case "$1" in
  -c) [ -n "${FAKE_TORCH:-}" ]; exit $?;;
  -) cat >/dev/null; [ "$2" = "${FAKE_REACHABLE:-}" ]; exit $?;;
  -m) shift; echo "$*" >> "$FAKE_LOG"; exit 0;;
esac
exit 2
"""


def install(tmp_path: Path, **env) -> tuple[list[str], str]:
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    log = tmp_path / "pip.log"
    log.write_text("")
    proc = subprocess.run(["bash", str(SCRIPT), str(python), str(paths.ROOT / "requirements.txt")],
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ["PATH"], "FAKE_LOG": str(log), **env})
    assert proc.returncode == 0, proc.stderr
    return log.read_text().splitlines(), proc.stderr


def test_torch_comes_from_pytorchs_cpu_index(tmp_path):
    calls, stderr = install(tmp_path, FAKE_REACHABLE=CPU_INDEX)
    assert calls == [f"pip install --quiet --disable-pip-version-check --index-url {CPU_INDEX} "
                     f"{PIN}"]
    assert stderr == ""


def test_an_unreachable_index_falls_back_to_the_default_with_a_clear_line(tmp_path):
    calls, stderr = install(tmp_path, FAKE_REACHABLE="somewhere else")
    assert calls == [f"pip install --quiet --disable-pip-version-check {PIN}"]
    assert f"could not be installed from {CPU_INDEX}" in stderr
    assert "CUDA build" in stderr and "TORCH_INDEX_URL" in stderr


def test_torch_index_url_chooses_the_index_and_empty_means_the_default(tmp_path):
    mirror = "https://mirror.example/torch-cpu"
    calls, _ = install(tmp_path, TORCH_INDEX_URL=mirror, FAKE_REACHABLE=mirror)
    assert calls[0].endswith(f"--index-url {mirror} {PIN}")
    calls, stderr = install(tmp_path, TORCH_INDEX_URL="")
    assert calls == [f"pip install --quiet --disable-pip-version-check {PIN}"]
    assert stderr == ""


def test_nothing_is_installed_when_the_pinned_torch_is_there(tmp_path):
    calls, _ = install(tmp_path, FAKE_TORCH="1", FAKE_REACHABLE=CPU_INDEX)
    assert calls == []
