"""Does scripts/install_torch.sh (run by scripts/setup.sh and by the Gradescope
zip's setup.sh) take torch from PyTorch's CPU index, fall back to pip's default
index with a clear line, and let TORCH_INDEX_URL choose? Run against a stand-in
Python that records what pip is asked, so nothing is downloaded."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
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


def install(tmp_path: Path, *options: str, **env) -> tuple[list[str], str]:
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    log = tmp_path / "pip.log"
    log.write_text("")
    proc = subprocess.run(["bash", str(SCRIPT), str(python), str(paths.ROOT / "requirements.txt"),
                           *options],
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


def test_options_after_the_requirements_go_to_every_pip_install(tmp_path):
    """scripts/setup.sh passes --no-compile (scripts/compile_venv.sh compiles afterwards)."""
    calls, _ = install(tmp_path, "--no-compile", FAKE_REACHABLE=CPU_INDEX)
    assert calls == [f"pip install --quiet --disable-pip-version-check --no-compile "
                     f"--index-url {CPU_INDEX} {PIN}"]
    calls, _ = install(tmp_path, "--no-compile", FAKE_REACHABLE="somewhere else")
    assert calls == [f"pip install --quiet --disable-pip-version-check --no-compile {PIN}"]


def test_compile_venv_compiles_what_pip_left_uncompiled(tmp_path):
    """scripts/compile_venv.sh writes the bytecode `pip install --no-compile` left out (an
    environment with PYTHONDONTWRITEBYTECODE set would otherwise compile torch in every
    process), and a file that is not Python 3 is skipped as pip skips it, not an error."""
    venv = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                                "'purelib'))"], capture_output=True, text=True,
                               check=True).stdout.strip())
    (site / "installed.py").write_text("ANSWER = 42\n")
    (site / "python2_template.py").write_text("print 'not Python 3'\n")
    run = subprocess.run(["bash", str(paths.ROOT / "scripts" / "compile_venv.sh"), str(python)],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert run.returncode == 0 and run.stdout == "", run.stdout + run.stderr
    assert Path(importlib.util.cache_from_source(str(site / "installed.py"))).is_file()
    assert not Path(importlib.util.cache_from_source(str(site / "python2_template.py"))).exists()
