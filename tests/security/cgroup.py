"""A memory limit for a command a test runs: a memory cgroup (v1 or v2) made
for it, where this machine lets the test make one (root, a writable cgroup
file system); otherwise `reason` says why there is none."""
from __future__ import annotations

import os
import shlex
import time
from pathlib import Path

V1 = Path("/sys/fs/cgroup/memory")
V2 = Path("/sys/fs/cgroup")


class MemoryLimit:
    """with MemoryLimit(bytes) as limit: run limit.wrap(shell command); then
    limit.peak() (bytes, page cache included) and limit.oom_kills()."""

    def __init__(self, limit_bytes: int):
        self.limit = limit_bytes
        self.path: Path | None = None
        self.version = 0
        self.reason = ""

    def __enter__(self) -> "MemoryLimit":
        name = f"autograder-test-{os.getpid()}-{time.monotonic_ns()}"
        if os.geteuid() != 0:
            self.reason = "making a memory cgroup needs root"
        elif (V1 / "memory.limit_in_bytes").exists() and os.access(V1, os.W_OK):
            self._make(1, V1 / name, {"memory.limit_in_bytes": self.limit})
        elif "memory" in _read(V2 / "cgroup.controllers").split() and os.access(V2, os.W_OK):
            try:  # the root cgroup may hand the memory controller to its children
                (V2 / "cgroup.subtree_control").write_text("+memory")
            except OSError:
                pass
            self._make(2, V2 / name, {"memory.max": self.limit})
        else:
            self.reason = "no writable memory cgroup (v1 or v2) on this machine"
        return self

    def _make(self, version: int, path: Path, settings: dict) -> None:
        try:
            path.mkdir()
            for key, value in settings.items():
                (path / key).write_text(str(value))
        except OSError as exc:
            self.reason = f"could not make a memory cgroup ({exc})"
            if path.exists():
                path.rmdir()
            return
        self.version, self.path = version, path

    def wrap(self, command: str) -> str:
        """`command` run inside the cgroup (as is when there is none)."""
        if self.path is None:
            return command
        return f"echo $$ > {shlex.quote(str(self.path / 'cgroup.procs'))} && {command}"

    def peak(self) -> int | None:
        files = {1: "memory.max_usage_in_bytes", 2: "memory.peak"}
        text = _read(self.path / files[self.version]) if self.path else ""
        return int(text) if text.strip().isdigit() else None

    def oom_kills(self) -> int | None:
        """Processes the kernel killed for this cgroup's limit (None: not reported)."""
        files = {1: "memory.oom_control", 2: "memory.events"}
        for line in (_read(self.path / files[self.version]) if self.path else "").splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return None

    def __exit__(self, *exc) -> None:
        if self.path is None:
            return
        for _ in range(50):  # its processes may take a moment to be reaped
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.1)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""
