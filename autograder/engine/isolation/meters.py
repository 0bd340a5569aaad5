"""Where a worker's memory and disk are counted, so that a worker that
stops answering is told which limit stopped it (connection.py's
OUT_OF_MEMORY, OUT_OF_DISK) rather than only that it died.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Callable

from autograder.engine.isolation import cgroups
from autograder.engine.isolation.sandbox import Sandbox
from autograder.kernel import disk


def memory_kills(sandbox: Sandbox, name: str) -> Callable[[], int | None]:
    """Where the kernel counts this worker's OOM kills: its own memory cgroup,
    or without one the whole tree's (a container's limit)."""
    if sandbox.cgroups:
        return functools.partial(sandbox.cgroups.oom_kills, name)
    return cgroups.tree_oom_kills


def over_disk(sandbox: Sandbox, disk_mb: int, workdir: Path,
              uid: int | None) -> Callable[[], bool]:
    """Whether this worker's files are past disk_mb, where its waiter meters
    them (kernel/disk.py; elsewhere a tmpfs of disk_mb holds them)."""
    if not sandbox.spec.meters_disk:
        return lambda: False
    limit = disk_mb * 2**20
    folders = disk.folders(str(workdir), sandbox.shared)
    return lambda: disk.over(folders, uid, limit)
