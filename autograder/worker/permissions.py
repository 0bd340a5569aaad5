"""What a worker's uid could open by file permissions alone: the check of the
"uid" sandbox mode, whose only wall they are (worker/modes.py).

Runs in a child of the template (root) with the uid's real ids and no group:
access(2) then answers as the kernel would for a worker (permission bits,
ACLs and security modules all count, no capability helps), while listing
folders stays root's. What must stay true: every file and folder below each
secret path that the uid could reach by its name is judged; a folder it
cannot pass through closes everything below it; a tree too large to judge
is reported, never passed.
"""
from __future__ import annotations

import os
import stat

MAX_ENTRIES = 200_000


def open_to(uid: int, secret: list[str], read_only: list[str]) -> str | None:
    """As `uid` (in a child about to exit): the first of `secret` (or of what
    they hold) it can read, write or list, or of `read_only` it can write,
    as "<path> is readable" (or "writable"); None when all are closed."""
    os.setgroups([])
    os.setresgid(uid, 0, 0)
    os.setresuid(uid, 0, 0)  # real ids: the uid's (access(2) judges by them); effective: root's
    for path in read_only:
        if os.path.lexists(path) and os.access(path, os.W_OK):
            return f"{path} is writable"
    budget = [MAX_ENTRIES]
    for top in secret:
        found = _walk(top, budget)
        if found:
            return found
    return None


def _walk(top: str, budget: list[int]) -> str | None:
    stack = [top]
    while stack:
        path = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            return f"{top} holds more than {MAX_ENTRIES} entries to check, which"
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISLNK(info.st_mode):
            continue  # what it points to is judged where it lies, if it is secret
        if os.access(path, os.W_OK):
            return f"{path} is writable"
        if os.access(path, os.R_OK):
            return f"{path} is readable"
        if stat.S_ISDIR(info.st_mode) and os.access(path, os.X_OK):
            try:  # the names are root's to list; what each lets the uid do is judged above
                stack.extend(entry.path for entry in os.scandir(path))
            except OSError:
                continue
    return None
