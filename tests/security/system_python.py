"""A virtual environment on Debian's python3.11 from apt, with the pinned
requirements, in a folder every user can pass through.

Modes whose workers run as uids of their own without a new root (landlock,
uid) need a Python other users can read; this machine's own Python lives in
root's 0700 home, and a Gradescope image's is the system's. Built once per
machine and requirements, then reused: the distributions this interpreter has
installed already (the checkout's .venv, the same Python minor) are linked in
first, which pip then finds satisfied (48 CPU-s of pip unpacking and compiling
torch and the rest otherwise).
"""
from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

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
    if sys.version_info[:2] == (3, 11):  # SYSTEM_PYTHON's minor: the same wheels
        link_installed(REPO / "requirements.txt",
                       Path(sysconfig.get_path("purelib")),
                       folder / "lib" / "python3.11" / "site-packages")
    for command in (["bash", str(REPO / "scripts" / "install_torch.sh"), str(python),
                     str(REPO / "requirements.txt")],
                    [str(python), "-m", "pip", "install", "--quiet",
                     "--disable-pip-version-check", "-r", str(REPO / "requirements.txt")]):
        subprocess.run(command, check=True, capture_output=True)
    (folder / ".complete").touch()
    return python


def link_installed(requirements: Path, source: Path, target: Path) -> list[str]:
    """Hard links in `target` to the files of every distribution `requirements` names,
    and of those they require, as `source` (a site-packages) has them installed, their
    compiled bytecode with them; the names linked. What `source` lacks is left to pip."""
    installed = {canonicalize_name(d.metadata["Name"]): d
                 for d in importlib.metadata.distributions(path=[str(source)])}
    wanted = [Requirement(line.split("#")[0]) for line in requirements.read_text().splitlines()
              if line.split("#")[0].strip()]
    linked: list[str] = []
    while wanted:
        requirement = wanted.pop()
        name = canonicalize_name(requirement.name)
        if name in linked or name not in installed or (
                requirement.marker is not None and not requirement.marker.evaluate({"extra": ""})):
            continue
        linked.append(name)
        dist = installed[name]
        wanted += [Requirement(r) for r in dist.requires or ()]
        for top in {Path(str(f)).parts[0] for f in dist.files or ()} - {"..", "__pycache__"}:
            _link_tree(source / top, target / top)
        for f in dist.files or ():  # a top-level module's bytecode beside the others'
            if Path(str(f)).parent == Path(".") and str(f).endswith(".py"):
                for pyc in (source / "__pycache__").glob(f"{Path(str(f)).stem}.*.pyc"):
                    _link_tree(pyc, target / "__pycache__" / pyc.name)
    return linked


def _link_tree(source: Path, target: Path) -> None:
    if target.exists() or not source.exists():
        return
    if source.is_dir() and not source.is_symlink():
        shutil.copytree(source, target, symlinks=True, copy_function=os.link)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(source, target, follow_symlinks=False)
