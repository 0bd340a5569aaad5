"""Worker uids (grader running as root): a pool, and the sweep of a uid.

What must stay true: two workers that may both still have a process never
share a uid. A uid is handed out again only after a sweep, run as that uid,
found none of its processes left (kill(-1) answered "no such process"); a
uid whose sweep fails is never handed out again by this grader. Across
graders on one machine, each uid in use is held with a lock on its file in
LOCKS, and a uid newly taken from the machine is swept before its first use.
Uids of existing users and the subordinate ranges in /etc/subuid and
/etc/subgid (rootless containers) are never used.
"""
from __future__ import annotations

import ctypes
import fcntl
import os
import pwd
import shutil
import signal
import threading
import time
from collections import deque
from pathlib import Path

BASE, SPAN = 200_000, 100_000
LOCKS = Path("/run/autograder-uids")
SHARED_TEMP = ("/tmp", "/var/tmp", "/dev/shm")
IPC_RMID = 0
_libc = ctypes.CDLL(None, use_errno=True)


class UidPool:
    """Uids for workers; `size` caps how many this grader holds at once
    (None: as many as are needed at once, reusing released ones first)."""

    def __init__(self, size: int | None = None, shared: bool = False):
        self.size = size
        self.shared = shared  # workers share the machine's /tmp and IPC: sweep those too
        self.free: deque[int] = deque()  # held by us, swept clean
        self.held: dict[int, int] = {}  # uid -> lock file descriptor (-1 without LOCKS)
        self.cond = threading.Condition()
        self.excluded = _taken_uids()
        self.next = BASE
        self.locks = _lock_dir()

    def acquire(self) -> int:
        with self.cond:
            while True:
                if self.free:
                    return self.free.popleft()
                if self.size is None or len(self.held) < self.size:
                    uid = self._take_new()
                    if sweep(uid, self.shared):
                        return uid
                    continue  # someone's leftovers we cannot clear: held, never used
                self.cond.wait()

    def release(self, uid: int, clean: bool) -> None:
        """Back to the pool only if `clean` (its sweep found nothing left)."""
        with self.cond:
            if clean:
                self.free.append(uid)
            self.cond.notify()

    def close(self) -> None:
        with self.cond:
            for fd in self.held.values():
                if fd >= 0:
                    os.close(fd)  # the lock goes with the descriptor
            self.held.clear()
            self.free.clear()

    def _take_new(self) -> int:
        for _ in range(SPAN):
            uid, self.next = self.next, BASE + (self.next + 1 - BASE) % SPAN
            if uid in self.held or uid in self.excluded:
                continue
            fd = self._lock(uid)
            if fd is not None:
                self.held[uid] = fd
                return uid
        raise RuntimeError(f"no free worker uid in {BASE}..{BASE + SPAN - 1}")

    def _lock(self, uid: int) -> int | None:
        if self.locks is None:
            return -1
        fd = os.open(self.locks / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            os.close(fd)
            return None  # another grader on this machine holds it


def _lock_dir() -> Path | None:
    """LOCKS, if it is (or can be made) a folder of root's alone; else None
    and the pool is this grader's only (its uids still never collide here)."""
    try:
        LOCKS.mkdir(mode=0o700, exist_ok=True)
        st = LOCKS.lstat()
        return LOCKS if st.st_uid == 0 and st.st_mode & 0o777 == 0o700 and LOCKS.is_dir() \
            and not LOCKS.is_symlink() else None
    except OSError:
        return None


def _taken_uids() -> set[int]:
    taken = {p.pw_uid for p in pwd.getpwall()}
    for name in ("/etc/subuid", "/etc/subgid"):
        try:
            lines = Path(name).read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            parts = line.split(":")
            if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
                start, count = int(parts[1]), int(parts[2])
                taken |= set(range(max(start, BASE), min(start + count, BASE + SPAN)))
    return taken


def sweep(uid: int, shared: bool, seconds: float = 5.0) -> bool:
    """Kill every process of `uid` (detached ones included) and, with `shared`,
    remove its SysV IPC objects and its files in the shared temp folders.
    Runs as `uid` in a forked child, so it can touch nothing else. True when
    no process of the uid is left."""
    pid = os.fork()
    if pid == 0:  # only system calls and modules already imported: a threaded parent
        code = 2
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            code = 0 if _kill_all(uid, seconds) else 1
            if shared:
                _remove_ipc(uid)
                for folder in SHARED_TEMP:
                    _remove_owned(folder, uid)
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def _kill_all(uid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.kill(-1, signal.SIGKILL)  # every process this uid may signal: its own
        except ProcessLookupError:
            return True  # no other process at all
        # kill(-1) succeeds even when every target refused: look for what is left
        if not _processes_of(uid):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)  # killed processes take a moment to go


def _processes_of(uid: int) -> list[str]:
    """Processes whose real or saved uid is `uid`, but this one; zombies too,
    since they count against the uid's process limit until reaped."""
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


IPC_TABLES = (("shm", "shmid", "shmctl"), ("sem", "semid", "semctl"), ("msg", "msqid", "msgctl"))


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
