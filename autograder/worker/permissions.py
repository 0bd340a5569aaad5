"""What a worker's uid could reach by file permissions alone: the check of the
modes whose workers share the machine's file system ("landlock", "uid":
kernel/modes.py), where permissions are the wall against stat() (Landlock
governs reads and writes, not stat: a file's existence, size and dates)
and, in "uid", the only wall.

Runs in a child of the template (root) with the uid's real ids and no group:
access(2) then answers as the kernel would for a worker (permission bits,
ACLs and security modules all count, no capability helps). What must stay
true: a secret path the uid can read, write or list, or a secret folder it
can pass through (which opens what it holds to stat(), names guessed), is
found; a folder the uid cannot reach (an ancestor it cannot pass through)
closes everything below it; a Python path it can write is found.
"""
from __future__ import annotations

import os
import stat


def open_to(uid: int, secret: list[str], read_only: list[str]) -> str | None:
    """As `uid` (in a child about to exit): the first of `secret` it can read,
    write, list or pass through, or of `read_only` it can write, as "<path> is
    readable" (or "writable", "can be passed through"); None when all are closed."""
    os.setgroups([])
    os.setresgid(uid, 0, 0)
    os.setresuid(uid, 0, 0)  # real ids: the uid's (access(2) judges by them); effective: root's
    for path in read_only:
        if os.path.lexists(path) and os.access(path, os.W_OK):
            return f"{path} is writable"
    for path in secret:
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
            return f"{path} can be passed through"
    return None
