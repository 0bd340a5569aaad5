"""A worker's disk use where no file system of its own bounds it: the modes
without namespaces (kernel/modes.py), whose workers write to the machine's
disk, where RLIMIT_FSIZE bounds each file but not their number.

The worker's root waiter (worker/template.py) keeps a Meter and looks every
POLL_SECONDS; the grader counts once more (`over`) when a worker died, to
say why. What must stay true: the worker's files (all of its own folder, and,
where it may write there, what its uid owns in the machine's folders open
to it: kernel/writable.py) are found over `limit` (and SLACK) within one look: a look is
taken whenever a watched file system has lost TRIGGER bytes of free space
since the last (a statvfs, cheap enough for every poll) and at least every
EVERY_SECONDS; each entry counts at least one block, so a million empty
files are over too, and a look stops counting past the limit, so it
counts at most limit / BLOCK of the worker's entries. Links are never
followed.
"""
from __future__ import annotations

import os
import stat
import time


POLL_SECONDS = 0.005
TRIGGER = 1 << 20
"""Free space a watched file system may lose before the worker's files are counted."""
EVERY_SECONDS = 1.0
BLOCK = 4096
"""What any entry counts at least (an inode, a directory's block)."""
SLACK = 1 << 20
"""Counted beyond the limit without stopping the worker: the file system's own
blocks (a file of exactly disk_mb, as RLIMIT_FSIZE allows, takes an extent
block more), so that what a tmpfs of disk_mb would hold is never stopped."""


def folders(workdir: str, shared: tuple[str, ...]) -> list[str]:
    """Where a worker may write: its own folder first, then the machine's
    folders its uid may create files in (kernel/writable.py; as its sweep sees them)."""
    return [workdir, *shared]


def usage(folders: list[str], uid: int | None, limit: int) -> int:
    """Bytes the worker's files take (allocated blocks, at least BLOCK per entry),
    counting stopped once past `limit`: everything under folders[0] (its own),
    and under the others (shared) what `uid` owns, and in world-writable folders
    there, below."""
    total, stack, seen = 0, [(folders[0], True)] + [(f, False) for f in folders[1:]], set()
    while stack and total <= limit:
        folder, mine = stack.pop()
        if folder in seen:  # a shared folder inside another, reached from both
            continue
        seen.add(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            owned = mine or info.st_uid == uid
            if owned:
                total += max(info.st_blocks * 512, BLOCK)
            if stat.S_ISDIR(info.st_mode) and (owned or info.st_mode & 0o002):
                stack.append((entry.path, owned))
            if total > limit:
                break
    return total


def over(folders: list[str], uid: int | None, limit: int) -> bool:
    """Whether the worker's files (`usage`) take more than `limit` and SLACK."""
    return usage(folders, uid, limit + SLACK) > limit + SLACK


class Meter:
    """The disk use of one worker: `folders` as `usage` takes them."""

    def __init__(self, folders: list[str], uid: int | None, limit: int):
        self.folders, self.uid, self.limit = folders, uid, limit
        self.high: dict[int, int] = {}  # file system -> most free bytes seen since the last look
        self.looked = 0.0

    def over(self) -> bool:
        """Whether the worker's files are over the limit; counted only when a
        watched file system lost TRIGGER bytes since the last count, or
        EVERY_SECONDS have passed."""
        lost = False
        for folder in self.folders:
            try:
                fs = os.statvfs(folder)
            except OSError:
                continue
            free = fs.f_bavail * fs.f_frsize
            high = self.high[fs.f_fsid] = max(self.high.get(fs.f_fsid, free), free)
            lost = lost or high - free >= TRIGGER
        if not lost and time.monotonic() - self.looked < EVERY_SECONDS:
            return False
        self.looked, self.high = time.monotonic(), {}
        return over(self.folders, self.uid, self.limit)
