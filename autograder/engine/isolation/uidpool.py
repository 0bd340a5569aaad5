"""Worker uids (grader running as root): a pool.

What must stay true: two workers that may both still have a process never
share a uid. A uid is handed out again only after the grader found none of
its processes left (kernel/sweep.py); a uid for which that failed is never
handed out again by this grader. Across
graders on one machine, each uid in use is held with a lock on its file in
LOCKS, and a uid newly taken from the machine is swept before its first use.
Uids of existing users and the subordinate ranges in /etc/subuid and
/etc/subgid (rootless containers) are never used. Graders in different PID
namespaces take uids from different ranges (the initial namespace's is
BASE..BASE+SPAN): a container keeps its own /run, so its graders cannot see
the host's locks, and a sweep from the host (kill(-1) as a uid) reaches the
container's processes of that uid.
"""
from __future__ import annotations

import fcntl
import os
import pwd
import threading
from collections import deque
from pathlib import Path
from typing import Callable

from autograder.engine.isolation.processes import INITIAL_PID_NAMESPACE, pid_namespace

BASE, SPAN = 200_000, 100_000
NAMESPACE_RANGES = 64
"""Ranges for graders outside the initial PID namespace, chosen by its inode."""
LOCKS = Path("/run/autograder-uids")


def namespace_base(namespace: int | None = None) -> int:
    """The first uid of the range of this (or that) PID namespace."""
    namespace = pid_namespace() if namespace is None else namespace
    if namespace in (INITIAL_PID_NAMESPACE, 0):
        return BASE
    return BASE + SPAN * (1 + namespace % NAMESPACE_RANGES)


MAX_FAILED_SWEEPS = 8


class UidsUnavailable(OSError):
    """No clean uid can be had for a worker now (that worker fails, not the batch)."""


class UidPool:
    """Uids for workers; `size` caps how many this grader has in use or free
    at once (None: as many as are needed at once, reusing released ones
    first); a uid that could not be swept clean stays held (locked, never
    used again) without counting against `size`. `sweep(uid)` kills whatever
    a uid still runs and says if it is clean: it runs outside the pool's lock,
    since a stubborn uid's sweep takes seconds and must not hold up the
    workers that start and stop meanwhile."""

    def __init__(self, sweep: Callable[[int], bool], size: int | None = None):
        self.size = size
        self.sweep = sweep
        self.free: deque[int] = deque()  # held by us, swept clean
        self.held: dict[int, int] = {}  # uid -> lock file descriptor (-1 without LOCKS)
        self.dirty: set[int] = set()  # held, never handed out again
        self.cond = threading.Condition()
        self.base = namespace_base()
        self.next = self.base
        self.excluded = _taken_uids(self.base)
        self.locks = _lock_dir()

    def acquire(self) -> int:
        """A clean uid; UidsUnavailable when MAX_FAILED_SWEEPS new ones in a row
        could not be swept (the sweeper is gone: each would hold a lock for ever)."""
        for _ in range(MAX_FAILED_SWEEPS):
            with self.cond:
                while not self.free and self.size is not None \
                        and len(self.held) - len(self.dirty) >= self.size:
                    self.cond.wait()
                if self.free:
                    return self.free.popleft()
                uid = self._take_new()  # maybe a crashed grader's: swept first
            clean = False
            try:
                clean = self.sweep(uid)
            finally:
                if not clean:  # someone's leftovers we cannot clear, or the sweep failed
                    self._give_up(uid)
            if clean:
                return uid
        raise UidsUnavailable(f"{MAX_FAILED_SWEEPS} new worker uids in a row could not be "
                              "swept clean")

    def release(self, uid: int, clean: bool) -> None:
        """Back to the pool only if `clean` (its sweep found nothing left)."""
        if not clean:
            self._give_up(uid)
            return
        with self.cond:
            self.free.append(uid)
            self.cond.notify()

    def _give_up(self, uid: int) -> None:
        with self.cond:
            self.dirty.add(uid)
            self.cond.notify()

    def close(self) -> None:
        with self.cond:
            for fd in self.held.values():
                if fd >= 0:
                    os.close(fd)  # the lock goes with the descriptor
            self.held.clear()
            self.free.clear()
            self.dirty.clear()

    def _take_new(self) -> int:
        for _ in range(SPAN):
            uid, self.next = self.next, self.base + (self.next + 1 - self.base) % SPAN
            if uid in self.held or uid in self.excluded:
                continue
            fd = self._lock(uid)
            if fd is not None:
                self.held[uid] = fd
                return uid
        raise RuntimeError(f"no free worker uid in {self.base}..{self.base + SPAN - 1}")

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


def _taken_uids(base: int) -> set[int]:
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
                taken |= set(range(max(start, base), min(start + count, base + SPAN)))
    return taken
