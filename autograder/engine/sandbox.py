"""Choosing the workers' sandbox, once, when grading starts.

Modes, in order of preference; the first in which a real worker starts wins:

    namespaces  root: new mount, PID, network, IPC and UTS namespaces, a new
                root built from an allowlist, a uid of its own per worker
    userns      the same namespaces and root inside an unprivileged user
                namespace (no root needed; as root also a uid per worker)
    landlock    namespaces refused (containers): a uid of its own per worker,
                Landlock on the same allowlist (files, TCP, signals), a
                seccomp filter, no_new_privs
    none        nothing above works: refused unless --unsafe-no-sandbox

What must stay true: the mode is chosen before any submission is graded and
never changes during the batch (a worker that fails later is that
submission's problem, not a reason to weaken everyone's sandbox); a mode is
reported only after a worker really started in it; `line()` says in one
line what defends the batch, memory included.
"""
from __future__ import annotations

import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from autograder.engine.cgroups import Cgroups
from autograder.engine.uidpool import UidPool
from autograder.worker import confine, landlock, seccomp

MODES = ("namespaces", "userns", "landlock")
NAMESPACE_MODES = ("namespaces", "userns")
FALLBACK_PROCESSES = 4
"""Without a memory cgroup: processes per submission, each with 1/4 of memory_mb."""

ENABLE = (
    "Grade as root; or allow unprivileged user namespaces (sysctl "
    "user.max_user_namespaces=15000, kernel.unprivileged_userns_clone=1 where it exists, "
    "on Ubuntu 23.10+ kernel.apparmor_restrict_unprivileged_userns=0); or, in a container "
    "that refuses namespaces, run as root on a kernel with Landlock (Linux 5.13+) with "
    "libseccomp installed (apt-get install libseccomp2). To grade without any isolation "
    "anyway, pass --unsafe-no-sandbox.")


class SandboxUnavailable(Exception):
    """No sandbox mode works here; the message (for the instructor) says what to enable."""


@dataclass
class Sandbox:
    mode: str
    uids: UidPool | None
    """A uid of its own per worker (root only)."""
    cgroups: Cgroups | None
    """A memory and pids cgroup per worker, where one can be made."""
    landlock_abi: int = 0

    def worker_limits(self, limits) -> dict:
        """The kernel limits a worker sets on itself in this sandbox."""
        processes = limits.processes if self.cgroups else min(limits.processes,
                                                              FALLBACK_PROCESSES)
        own_count = self.uids is not None or self.mode == "userns"
        return {"cpu_seconds": limits.cpu_seconds, "disk_mb": limits.disk_mb,
                "processes": processes,
                # one process may use the whole budget; all together are held by the cgroup,
                # or, without one, by processes x (memory_mb / processes)
                "as_mb": limits.memory_mb if self.cgroups else limits.memory_mb // processes,
                # the waiter of a user namespace counts there too
                "nproc": processes + (self.mode == "userns") if own_count else None,
                # a new program would start outside the per-process memory share
                "exec": self.cgroups is not None}

    def line(self, limits) -> str:
        w = self.worker_limits(limits)
        if self.cgroups:
            memory = (f"memory: {limits.memory_mb} MB for all of a submission's processes "
                      f"({self.cgroups.describe()})")
        else:
            count = w["processes"] if w["nproc"] else "any number of"
            memory = f"memory: no cgroup, so {count} processes x {w['as_mb']} MB each"
        return f"sandbox: {self.mode} ({self._what()}; {memory})"

    def _what(self) -> str:
        user = "a uid per worker" if self.uids else f"as {_user()}"
        if self.mode == "namespaces":
            return f"root: mount, PID, network and IPC namespaces, allowlisted root, {user}"
        if self.mode == "userns":
            return ("unprivileged user namespace: mount, PID, network and IPC namespaces, "
                    f"allowlisted root, {user}")
        if self.mode == "landlock":
            lacks = "; ".join(landlock.missing(self.landlock_abi))
            return (f"namespaces refused: {user}, Landlock ABI {self.landlock_abi} on the "
                    f"allowlist, seccomp, no_new_privs" + (f"; this ABI: {lacks}" if lacks else ""))
        return (f"UNSAFE, --unsafe-no-sandbox: {user}, resource limits only; student code can "
                "read what that user can read and reach the network")


def _user() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return f"uid {os.getuid()}"


def choose(probe: Callable[[str], str | None], allow_unsafe: bool) -> str:
    """The first mode whose prerequisites hold and in which `probe` (start a
    worker, talk to it, stop it) returns no error; "none" if allowed."""
    tried = []
    for mode in MODES:
        why = prerequisite_missing(mode) or probe(mode)
        if why is None:
            return mode
        tried.append(f"{mode}: {why}")
    if allow_unsafe:
        return "none"
    raise SandboxUnavailable("no sandbox for student code works on this machine, so "
                             "grading is refused (" + "; ".join(tried) + "). " + ENABLE)


def prerequisite_missing(mode: str) -> str | None:
    root = os.geteuid() == 0
    if mode == "namespaces":
        return None if root else "needs root"
    if mode == "userns":
        for name, off in (("user/max_user_namespaces", "0"),
                          ("kernel/unprivileged_userns_clone", "0")):
            if not root and _sysctl(name) == off:
                return f"disabled ({name.replace('/', '.')} = {off})"
        return None
    if not root:
        return "needs root (a uid of its own per worker)"
    if landlock.abi_version() < 1:
        return "this kernel has no Landlock (Linux 5.13+ with landlock among its LSMs)"
    try:
        seccomp.load_library()
    except OSError:
        return "libseccomp is not installed (apt-get install libseccomp2)"
    closed = closed_to_others(confine.python_paths([]))
    if closed:
        return (f"Python lives inside {closed}, which other users cannot enter, and each "
                "worker runs as a uid of its own: install Python (or the grader's venv) in "
                "a folder every user can read, such as /usr, /opt or /autograder")
    return None


def closed_to_others(paths: list[str]) -> str | None:
    """The first folder on the way to one of `paths` that users other than its
    owner cannot pass through (no execute bit for others: /root is 0700), or None."""
    for path in paths:
        folder = Path(path).resolve()
        for step in (*reversed(folder.parents), folder):
            try:
                mode = step.stat().st_mode
            except OSError:
                continue
            if not mode & stat.S_IXOTH:
                return str(step)
    return None


def _sysctl(name: str) -> str | None:
    try:
        return Path("/proc/sys", name).read_text().strip()
    except OSError:
        return None
