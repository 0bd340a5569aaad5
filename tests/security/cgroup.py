"""A memory limit, and optionally a CPU quota, for a command a test runs: cgroups
(v1 or v2) made for it, where this machine lets the test make them (root, a
writable cgroup file system); otherwise `reason` says why there are none."""
from __future__ import annotations

import os
import shlex
import time
from pathlib import Path

V1 = Path("/sys/fs/cgroup")
V2 = Path("/sys/fs/cgroup")
PERIOD_US = 100_000


class MemoryLimit:
    """with MemoryLimit(bytes[, cpu=0.5]) as limit: run limit.wrap(shell command);
    then limit.peak() (bytes, page cache included) and limit.oom_kills();
    limit.resident() while it runs.
    `cpu`: the share of one core the whole tree may use (a CFS quota)."""

    def __init__(self, limit_bytes: int, cpu: float | None = None):
        self.limit = limit_bytes
        self.cpu = cpu
        self.folders: dict[str, Path] = {}  # "memory", "cpu" -> its folder (v2: both the same)
        self.version = 0
        self.reason = ""

    @property
    def path(self) -> Path | None:
        return self.folders.get("memory")

    def __enter__(self) -> "MemoryLimit":
        name = f"autograder-test-{os.getpid()}-{time.monotonic_ns()}"
        quota = int(self.cpu * PERIOD_US) if self.cpu else None
        if os.geteuid() != 0:
            self.reason = "making a memory cgroup needs root"
        elif (V1 / "memory" / "memory.limit_in_bytes").exists() and os.access(V1 / "memory", os.W_OK):
            wanted = {"memory": {"memory.limit_in_bytes": self.limit}}
            if quota:
                wanted["cpu"] = {"cpu.cfs_period_us": PERIOD_US, "cpu.cfs_quota_us": quota}
            self._make(1, {c: V1 / c / name for c in wanted}, wanted)
        elif "memory" in _read(V2 / "cgroup.controllers").split() and os.access(V2, os.W_OK):
            try:  # the root cgroup may hand the controllers to its children
                (V2 / "cgroup.subtree_control").write_text("+memory" + (" +cpu" if quota else ""))
            except OSError:
                pass
            settings = {"memory.max": self.limit, **({"cpu.max": f"{quota} {PERIOD_US}"}
                                                     if quota else {})}
            self._make(2, {"memory": V2 / name, **({"cpu": V2 / name} if quota else {})},
                       {"memory": settings})
        else:
            self.reason = "no writable memory cgroup (v1 or v2) on this machine"
        return self

    def _make(self, version: int, folders: dict[str, Path], wanted: dict[str, dict]) -> None:
        made = []
        try:
            for controller, folder in folders.items():
                if folder not in made:
                    folder.mkdir()
                    made.append(folder)
                for key, value in wanted.get(controller, {}).items():
                    (folder / key).write_text(str(value))
        except OSError as exc:
            self.reason = f"could not make the cgroups ({exc})"
            for folder in made:
                folder.rmdir()
            return
        self.version, self.folders = version, folders

    def wrap(self, command: str) -> str:
        """`command` run inside the cgroups (as is when there are none)."""
        joins = [f"echo $$ > {shlex.quote(str(folder / 'cgroup.procs'))}"
                 for folder in dict.fromkeys(self.folders.values())]
        return " && ".join([*joins, command])

    def peak(self) -> int | None:
        files = {1: "memory.max_usage_in_bytes", 2: "memory.peak"}
        text = _read(self.path / files[self.version]) if self.path else ""
        return int(text) if text.strip().isdigit() else None

    def resident(self) -> int | None:
        """What the cgroup holds now that cannot be dropped as page cache: its
        processes' anonymous and shared memory and the file pages they map, bytes."""
        keys = {1: ("total_rss", "total_mapped_file", "total_shmem"),
                2: ("anon", "file_mapped", "shmem")}.get(self.version, ())
        stat = dict(line.split()[:2] for line in _read(self.path / "memory.stat").splitlines()
                    if line.count(" ") == 1) if self.path else {}
        found = [int(stat[k]) for k in keys if k in stat]
        return sum(found) if found else None

    def oom_kills(self) -> int | None:
        """Processes the kernel killed for this cgroup's limit (None: not reported)."""
        files = {1: "memory.oom_control", 2: "memory.events"}
        for line in (_read(self.path / files[self.version]) if self.path else "").splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return None

    def __exit__(self, *exc) -> None:
        for folder in dict.fromkeys(self.folders.values()):
            for _ in range(50):  # its processes may take a moment to be reaped
                try:
                    folder.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""
