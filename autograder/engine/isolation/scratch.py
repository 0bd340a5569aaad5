"""The folder a batch's workers work in, and those of graders that died.

Each template makes one folder in the machine's temporary folder, its workers'
folders inside it, and removes it when the batch ends. A grader that is killed
(SIGKILL, a lost machine) leaves it behind with its workers' files, owned by
uids of the pool: a later grader in uid mode would have to sweep every one of
them after each worker (kernel/writable.py lists a folder of a pool uid as a
place a worker could write), and past MAX_PLACES would refuse the mode. So the
live grader holds a lock on a file in its folder for as long as the folder
lives, and a starting grader removes the folders of ours whose lock nobody
holds (the grader that held it is gone: the kernel drops a dead process's locks).

What must stay true: a live batch's folder is never removed, nor one without
its lock file (being made, or made by a grader from before the lock, which may
still be running); only folders this user owns, never through a link. The lock
file takes its name only once it is locked (made as MAKING, locked, renamed):
under its name unlocked for an instant, a starting grader took a live folder
for a dead one's and removed it.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import stat
import tempfile
from pathlib import Path

PREFIX = "autograder-workers-"
LOCK = ".grader"
"""The file in the folder whose lock the live grader holds."""
MAKING = ".grader-making"
"""The lock file's name until it is locked."""


class Scratch:
    """A batch's folder in the temporary folder, held until `close` (or, with
    `prefix`, another folder of the grader's kept the same way: a Dask host's)."""

    def __init__(self, prefix: str = PREFIX, mode: int = 0o711):
        self.path = Path(tempfile.mkdtemp(prefix=prefix))
        self.path.chmod(mode)  # 0o711: workers may pass through to their own folder, not list it
        self._held = os.open(self.path / MAKING, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                             0o600)
        fcntl.flock(self._held, fcntl.LOCK_EX)
        os.rename(self.path / MAKING, self.path / LOCK)  # the lock goes with the file

    def close(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        os.close(self._held)


def remove_stale(folder: Path | None = None, prefix: str = PREFIX) -> list[Path]:
    """Remove the folders named `prefix`... in `folder` (the temporary folder) left
    by graders of this user that died; return them."""
    folder = Path(folder or tempfile.gettempdir())
    removed = []
    try:
        names = [e.name for e in os.scandir(folder) if e.name.startswith(prefix)]
    except OSError:
        return removed
    for name in names:
        path = folder / name
        if _stale(path):
            shutil.rmtree(path, ignore_errors=True)  # what this user may remove of it
            if not os.path.lexists(path):
                removed.append(path)
    return removed


def _stale(path: Path) -> bool:
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        return False
    try:
        fd = os.open(path / LOCK, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:  # no lock file: being made, or by a grader from before the lock
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False  # its grader lives
    finally:
        os.close(fd)
    return True
