"""Confining a freshly forked worker: namespaces, user, limits, descriptors.

Runs in the child between fork and the first student cell. As root the
worker gets new mount, network, PID, IPC and UTS namespaces (no network, not
even loopback; secret paths covered by empty read-only tmpfs; its own /proc;
a size-capped tmpfs as working directory) and then drops to a uid of its
own, so that kill(-1) and RLIMIT_NPROC reach only its own processes. As any
other user only the resource limits and the scrubbed environment apply.
"""
from __future__ import annotations

import ctypes
import os
import resource
import signal

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 1 << 18

_libc = ctypes.CDLL(None, use_errno=True)


def _check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source: str, target: str, fstype: str | None, flags: int, data: str | None = None):
    _check(_libc.mount(source.encode(), target.encode(),
                       fstype.encode() if fstype else None, flags,
                       data.encode() if data else None), f"mount {target}")


def isolate_as_root(spec: dict) -> int:
    """New namespaces, then fork: returns 0 in the namespace's init (the
    worker proper) and the worker's pid in the parent, which stays outside
    as a root waiter and never runs student code."""
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC
                         | CLONE_NEWUTS), "unshare")
    _mount("none", "/", None, MS_REC | MS_PRIVATE)  # nothing below leaks to the host
    for path in spec["hide"]:
        if os.path.isdir(path):  # an empty, unreadable tmpfs over each secret folder
            _mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                   "size=4k,mode=000")
    for path in python_paths():
        expose(path, spec["workdir"])
    # the host's files read-only; the only writable places are small tmpfs. The
    # working directory is a fresh tmpfs at its own path, not over /tmp, which
    # may hold the virtual environment (a clone in /tmp, as CI makes)
    _mount("none", "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY)
    uid, disk = spec["uid"], spec["limits"]["disk_mb"]
    _mount("tmpfs", spec["workdir"], "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={disk}m,mode=0700,uid={uid},gid={uid}")
    for path in ("/dev/shm", "/var/tmp"):
        if os.path.isdir(path):
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0700")
    return os.fork()


def python_paths() -> list[str]:
    """Where the interpreter, the standard library and site-packages live."""
    import sys
    found = {sys.prefix, sys.base_prefix, *(p for p in sys.path if p and os.path.isdir(p))}
    return sorted(found)


def expose(path: str, scratch: str) -> None:
    """Make `path` reachable by other users when an ancestor (such as a 0700
    /root holding pyenv) is not: inside this mount namespace, the ancestor is
    covered by an empty tmpfs (hiding the rest of it) and the one child that
    leads to `path` is bound back in."""
    parts = os.path.abspath(path).split("/")[1:]
    for depth in range(1, len(parts)):
        ancestor = "/" + "/".join(parts[:depth])
        if os.stat(ancestor).st_mode & 0o001:
            continue
        child = parts[depth]
        hold = os.path.join(scratch, "hold")
        os.makedirs(hold, exist_ok=True)
        _mount(os.path.join(ancestor, child), hold, None, MS_BIND | MS_REC)
        _mount("tmpfs", ancestor, "tmpfs", MS_NOSUID | MS_NODEV, "size=4k,mode=0711")
        os.mkdir(os.path.join(ancestor, child))
        _mount(hold, os.path.join(ancestor, child), None, MS_BIND | MS_REC)
        _check(_libc.umount2(hold.encode(), 2), "umount hold")  # MNT_DETACH
        os.rmdir(hold)
        return expose(path, scratch)  # deeper ancestors may be closed too
    return None


def enter_pid_namespace() -> None:
    """In the namespace's init: a /proc that shows only this namespace."""
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)


def drop_privileges(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def apply_limits(limits: dict) -> None:
    """Kernel limits: a backstop behind the grader's wall-clock timeouts."""
    vm_kb = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0])
    memory = vm_kb * 1024 + limits["memory_mb"] * 2**20
    for name, value in (
        ("RLIMIT_AS", memory),
        ("RLIMIT_CPU", limits["cpu_seconds"]),
        ("RLIMIT_FSIZE", limits["disk_mb"] * 2**20),
        ("RLIMIT_NOFILE", 256),
        ("RLIMIT_CORE", 0),
    ):
        resource.setrlimit(getattr(resource, name), (value, value))
    if os.getuid() != 0 and limits.get("own_uid"):
        # counted per uid: only meaningful when this uid is the worker's alone
        resource.setrlimit(resource.RLIMIT_NPROC, (limits["processes"], limits["processes"]))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # oversized writes fail instead of killing


def scrub_process(keep_fd: int, workdir: str) -> None:
    """Only the channel to the grader stays open; a minimal environment."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.closerange(3, keep_fd)
    os.closerange(keep_fd + 1, 65536)
    path = os.environ.get("PATH", "/usr/bin:/bin")
    os.environ.clear()
    os.environ.update(PATH=path, HOME=workdir, TMPDIR=workdir, MPLCONFIGDIR=workdir,
                      MPLBACKEND="Agg", LANG="C.UTF-8", OMP_NUM_THREADS="1")
    os.chdir(workdir)
    os.umask(0o077)
