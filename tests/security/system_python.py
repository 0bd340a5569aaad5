"""A virtual environment on Debian's python3.11 from apt, with the pinned
requirements, in a folder every user can pass through.

Modes whose workers run as uids of their own without a new root (landlock,
uid) need a Python other users can read; this machine's own Python lives in
root's 0700 home, and a Gradescope image's is the system's. Built once per
machine and requirements, then reused: the distributions this interpreter has
installed already (the checkout's .venv, the same Python minor) are linked in
first, which pip then finds satisfied (13 s to build, where pip unpacking and
compiling torch and the rest took 49 s).
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests import installed

REPO = Path(__file__).resolve().parents[2]
BASE = Path("/var/lib/autograder-gradescope-test")
"""Root's, 0755: what tests build for other uids to read (venvs, Gradescope images)."""
SYSTEM_PYTHON = Path("/usr/bin/python3.11")


def unavailable() -> str | None:
    if SYSTEM_PYTHON.exists() or shutil.which("apt-get"):  # apt-get installs it
        return None
    return f"needs {SYSTEM_PYTHON} or apt-get to install it"


def venv() -> Path:
    """The environment's python, built on first use (by one pytest-xdist worker at a
    time: the others wait on a lock, then find it complete)."""
    BASE.mkdir(mode=0o755, exist_ok=True)
    with open(BASE / ".venv.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _venv()


def _venv() -> Path:
    requirements = (REPO / "requirements.txt").read_bytes()
    folder = BASE / f"venv-{hashlib.sha256(requirements).hexdigest()[:12]}"
    python = folder / "bin" / "python"
    if (folder / ".complete").exists():
        return python
    BASE.mkdir(mode=0o755, exist_ok=True)
    if not SYSTEM_PYTHON.exists() or subprocess.run(
            [str(SYSTEM_PYTHON), "-c", "import ensurepip"],
            capture_output=True).returncode != 0:  # missing, or without venv
        lock = ["-o", "DPkg::Lock::Timeout=600"]  # another apt-get may be running
        subprocess.run(["apt-get", *lock, "update", "-qq"], check=True, capture_output=True)
        subprocess.run(["apt-get", *lock, "install", "-y", "-qq", "python3.11", "python3.11-venv",
                        "libseccomp2"], check=True, capture_output=True,
                       env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
                            "DEBIAN_FRONTEND": "noninteractive"})
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", str(folder)], check=True)
    link_installed(REPO / "requirements.txt", folder)
    for command in (["bash", str(REPO / "scripts" / "install_torch.sh"), str(python),
                     str(REPO / "requirements.txt")],
                    [str(python), "-m", "pip", "install", "--quiet",
                     "--disable-pip-version-check", "-r", str(REPO / "requirements.txt")]):
        subprocess.run(command, check=True, capture_output=True)
    (folder / ".complete").touch()
    return python


def link_installed(requirements: Path, venv: Path) -> None:
    """Hard links in the site-packages of `venv` (a venv of SYSTEM_PYTHON) to the
    installed files, compiled bytecode included, of every distribution `requirements`
    names and of those they require, as this interpreter has them (copies across file
    systems); what it lacks is left to pip. Nothing when this interpreter is not a
    3.11 too: its wheels would not be SYSTEM_PYTHON's."""
    if sys.version_info[:2] != (3, 11):
        return
    target = venv / "lib" / "python3.11" / "site-packages"
    lines = [line.split("#")[0].strip() for line in requirements.read_text().splitlines()]
    for dist in installed.closure(line for line in lines if line):
        site = Path(dist.locate_file(""))
        entries = installed.top_level(dist)
        for module in [p for p in entries if p.suffix == ".py"]:  # its bytecode, beside
            entries += sorted((site / "__pycache__").glob(f"{module.stem}.*.pyc"))
        for path in entries:
            linked = target / path.relative_to(site)
            if linked.exists():
                continue
            if path.is_dir() and not path.is_symlink():
                shutil.copytree(path, linked, symlinks=True, copy_function=_link)
            else:
                linked.parent.mkdir(parents=True, exist_ok=True)
                _link(path, linked)


def _link(source, target) -> None:
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:  # another file system
        shutil.copy2(source, target, follow_symlinks=False)
