"""Whether a process is still there, and which PID namespace this one is in,
as the trusted side needs to know them."""
from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie (a zombie still answers
    kill(0) but has released everything we care about); True also for a
    process of another user we may not signal."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


INITIAL_PID_NAMESPACE = 0xEFFFFFFC  # the kernel's PROC_PID_INIT_INO


def pid_namespace() -> int:
    """The inode of this process's PID namespace (0 when /proc cannot tell)."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return 0
