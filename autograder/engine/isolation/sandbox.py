"""Choosing the workers' sandbox, once, when grading starts.

The modes and what each needs and gives are declared in kernel/modes.py
(namespaces, userns, landlock, uid; none only with --unsafe-no-sandbox);
the first whose needs hold and in which a real worker starts wins.

What must stay true: the mode is chosen before any submission is graded and
never changes during the batch (a worker that fails later is that
submission's problem, not a reason to weaken everyone's sandbox); a mode is
reported only after a worker really started in it; `line()` says in one
line what defends the batch, memory included. Needs are judged on what a
worker really uses: Python's own folders without the grader's source folder
(workers are forked after the imports and never read it).
"""
from __future__ import annotations

import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from autograder import protocol
from autograder.engine.isolation.cgroups import Cgroups
from autograder.engine.intake import untrusted
from autograder.engine.isolation.uidpool import UidPool
from autograder.kernel import allowlist, landlock, modes, seccomp

FALLBACK_PROCESSES = 4
"""Without a memory cgroup: processes per submission, each with 1/4 of memory_mb."""

ENABLE = (
    "Grade as root; or allow unprivileged user namespaces (sysctl "
    "user.max_user_namespaces=15000, kernel.unprivileged_userns_clone=1 where it exists, "
    "on Ubuntu 23.10+ kernel.apparmor_restrict_unprivileged_userns=0); or, in a container "
    "that refuses namespaces, run as root with libseccomp installed (apt-get install "
    "libseccomp2) and every secret folder closed to other users (chmod -R o-rwx), "
    "Landlock on top where the kernel has it (Linux 5.13+). To grade without any "
    "isolation anyway, pass --unsafe-no-sandbox.")


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
    memory_note: str = ""
    """Why memory_mb was lowered to fit the container, "" when it was not."""
    shared: tuple[str, ...] = ()
    """The machine's folders a worker's uid may create files in, swept and
    metered (kernel/writable.py): found by the "writes swept" need, () in the
    modes that keep a worker's writes in its own folder."""

    @property
    def spec(self) -> modes.Mode:
        return modes.BY_NAME[self.mode]

    def worker_limits(self, limits) -> protocol.WorkerLimits:
        """The kernel limits a worker sets on itself in this sandbox."""
        processes = limits.processes if self.cgroups else min(limits.processes,
                                                              FALLBACK_PROCESSES)
        own_count = self.uids is not None or self.spec.user_namespace
        return protocol.WorkerLimits(
            cpu_seconds=limits.cpu_seconds, disk_mb=limits.disk_mb, processes=processes,
            # one process may use the whole budget; all together are held by the cgroup,
            # or, without one, by processes x (memory_mb / processes)
            as_mb=limits.memory_mb if self.cgroups else limits.memory_mb // processes,
            # the waiter of a user namespace counts there too
            nproc=processes + self.spec.user_namespace if own_count else None,
            # a new program would start outside the per-process memory share
            exec=self.cgroups is not None)

    def line(self, limits) -> str:
        w = self.worker_limits(limits)
        if self.cgroups:
            memory = (f"memory: {limits.memory_mb} MB for all of a submission's processes "
                      f"({self.cgroups.describe()})")
        else:
            count = w.processes if w.nproc else "any number of"
            memory = f"memory: no cgroup, so {count} processes x {w.as_mb} MB each"
        memory += f", {self.memory_note}" if self.memory_note else ""
        return f"sandbox: {self.mode} ({self._what()}; {memory})"

    def _what(self) -> str:
        spec = self.spec
        what = spec.gives.format(user="a uid per worker" if self.uids else f"as {_user()}",
                                 abi=self.landlock_abi)
        if spec.landlock and landlock.missing(self.landlock_abi):
            what += "; this ABI: " + "; ".join(landlock.missing(self.landlock_abi))
        return what + (f"; lacks: {spec.lacks}" if spec.lacks else "")


def _user() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return f"uid {os.getuid()}"


@dataclass
class Needs:
    """What the needs of a mode are judged on: the folders workers must never
    see (`hide`); `audit(secret, read_only)`, run as a worker's uid: a
    sentence naming the first of `secret` (or of what they hold) that uid can
    read or write, or of `read_only` that it can write, None when none;
    `scan()`, run as a worker's uid: every place it could write
    (kernel/writable.find's answer); the `sandbox`, which learns what to sweep."""
    hide: list[str]
    audit: Callable[[list[str], list[str]], str | None] | None = None
    scan: Callable[[], dict] | None = None
    sandbox: Sandbox | None = None

    def missing(self, mode: modes.Mode) -> str | None:
        """Why `mode` cannot be used here (its first need that does not hold), or None."""
        for need in mode.needs:
            why = NEEDS[need](self)
            if why:
                return why
        return None


def _root(needs: Needs) -> str | None:
    return None if os.geteuid() == 0 else "needs root (a uid of its own per worker)"


def _user_namespaces(needs: Needs) -> str | None:
    if os.geteuid() != 0:
        for name, off in (("user/max_user_namespaces", "0"),
                          ("kernel/unprivileged_userns_clone", "0")):
            if _sysctl(name) == off:
                return f"disabled ({name.replace('/', '.')} = {off})"
    return None


def _landlock(needs: Needs) -> str | None:
    if landlock.abi_version() < 1:
        return "this kernel has no Landlock (Linux 5.13+ with landlock among its LSMs)"
    return None


def _libseccomp(needs: Needs) -> str | None:
    try:
        seccomp.load_library()
    except OSError:
        return "libseccomp is not installed (apt-get install libseccomp2)"
    return None


def _python_open(needs: Needs) -> str | None:
    closed = closed_to_others(allowlist.python_paths(needs.hide))
    if closed:
        return (f"Python lives inside {closed}, which other users cannot enter, and each "
                "worker runs as a uid of its own: install Python (or the grader's venv) in "
                "a folder every user can read, such as /usr, /opt or /autograder")
    return None


def _secrets_closed(needs: Needs) -> str | None:
    """No folder a worker must not see is open to a worker's uid (not even to
    pass through: stat() is governed by file permissions alone in the modes
    that share the machine's file system), and the Python it runs cannot be
    changed by it."""
    found = needs.audit(needs.hide, allowlist.python_paths(needs.hide)) if needs.audit else \
        "file permissions cannot be checked as a worker's uid here"
    if found:
        return (f"{found}, and without namespaces file permissions are what keeps a worker "
                "out (of stat() too: a file's existence, size and dates): close what is "
                "secret to other users (chmod -R o-rwx), and Python to their writes")
    return None


def _writes_swept(needs: Needs) -> str | None:
    """Every place on the machine a worker's uid could write (a walk of the
    whole machine as that uid: kernel/writable.py) is one its sweep and disk
    meter cover: each folder it can create files in becomes one they clear
    and count (`Sandbox.shared`); a regular file open to its writes, which it
    could grow or pass notes through without owning it, refuses the mode."""
    found = needs.scan() if needs.scan else {"error": "no walk as a worker's uid here"}
    if "error" in found:
        return f"the places the workers' uids can write could not be found: {found['error']}"
    if found["files"]:
        return (f"{untrusted.name(found['files'][0], 300)} can be written by the workers' uids "
                f"({len(found['files'])} such file(s)), which no sweep may clear: close it to "
                "other users' writes (chmod o-w)")
    if needs.sandbox is not None:
        needs.sandbox.shared = tuple(found["folders"])
    return None


NEEDS: dict[str, Callable[[Needs], str | None]] = {
    "root": _root, "user namespaces": _user_namespaces, "landlock": _landlock,
    "libseccomp": _libseccomp, "python open to others": _python_open,
    "secrets closed to others": _secrets_closed, "writes swept": _writes_swept}


def choose(probe: Callable[[str], str | None], allow_unsafe: bool, needs: Needs) -> str:
    """The first mode whose needs hold and in which `probe` (start a worker,
    talk to it, stop it) returns no error; "none" if allowed."""
    tried = []
    for mode in modes.MODES:
        why = needs.missing(mode) or probe(mode.name)
        if why is None:
            return mode.name
        tried.append(f"{mode.name}: {why}")
    if allow_unsafe:
        return modes.NONE.name
    raise SandboxUnavailable("no sandbox for student code works on this machine, so "
                             "grading is refused (" + "; ".join(tried) + "). " + ENABLE)


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
