"""Sweeping a worker uid: runs as that uid in a child of the template (root).

What must stay true: `sweep_as` kills every process of the uid, detached
ones included, and reports clean only when none is left (zombies included:
they count against the uid's process limit until reaped); with `shared` it
also removes the uid's SysV IPC objects and its files in the folders it is
given: every folder of the machine the uid may create files in, found at
start (kernel/writable.py). It runs as the uid, so it can touch nothing else. It runs
in a fork of the template, never of the grader: forking the grader while
another of its threads is inside a BLAS call can hang that call for good.
"""
from __future__ import annotations

import ctypes
import os
import shutil
import signal
import time
from pathlib import Path

IPC_RMID = 0
IPC_TABLES = (("shm", "shmid", "shmctl"), ("sem", "semid", "semctl"), ("msg", "msqid", "msgctl"))
SECONDS = 5.0
_libc = ctypes.CDLL(None, use_errno=True)


def sweep_as(uid: int, shared: bool, folders: tuple[str, ...] = (),
             seconds: float = SECONDS) -> bool:
    """In a child of the template (root): act as `uid` (saved uid root, so it
    is root again, and not one of the uid's processes, once it answers)."""
    os.setgroups([])
    os.setresgid(uid, uid, 0)
    os.setresuid(uid, uid, 0)  # no capability is effective while acting as the uid
    clean = kill_all(uid, seconds)
    if shared:
        _remove_ipc(uid)
        for folder in folders:
            _remove_owned(folder, uid)
    os.setresuid(0, 0, 0)
    os.setresgid(0, 0, 0)
    return clean


def kill_all(uid: int, seconds: float) -> bool:
    """As `uid`: kill(-1) until no process of it is left (or time is up)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.kill(-1, signal.SIGKILL)  # every process this uid may signal: its own
        except ProcessLookupError:
            return True  # no other process at all
        _reap_children()  # a waiter sweeping on its way out adopted some of them
        # kill(-1) succeeds even when every target refused: look for what is left
        if not processes_of(uid):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)  # killed processes take a moment to go


def _reap_children() -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def processes_of(uid: int) -> list[str]:
    """Processes whose real or saved uid is `uid`, but this one; zombies too."""
    me, wanted, found = str(os.getpid()), str(uid).encode(), []
    for name in os.listdir("/proc"):
        if not name.isdigit() or name == me:
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as f:
                status = f.read(2048)
        except OSError:
            continue  # gone meanwhile
        fields = dict(line.split(b":", 1) for line in status.splitlines() if b":" in line)
        uids = fields.get(b"Uid", b"").split()
        if len(uids) == 4 and wanted in (uids[0], uids[2]):
            found.append(name)
    return found


def _remove_ipc(uid: int) -> None:
    for table, id_column, call in IPC_TABLES:
        try:
            header, *rows = Path(f"/proc/sysvipc/{table}").read_text().splitlines()
        except OSError:
            continue
        columns = header.split()
        for row in rows:
            values = dict(zip(columns, row.split()))
            if str(uid) in (values.get("uid"), values.get("cuid")):
                ident = int(values[id_column])
                args = (ident, 0, IPC_RMID) if table == "sem" else (ident, IPC_RMID, None)
                getattr(_libc, call)(*args)


def _remove_owned(folder: str, uid: int) -> None:
    """The uid's entries in `folder`, and in any world-writable folder below
    it (the only places it could have written)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
            if st.st_uid == uid:
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
            elif entry.is_dir(follow_symlinks=False) and st.st_mode & 0o002:
                _remove_owned(entry.path, uid)
        except OSError:
            continue
