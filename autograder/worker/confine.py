"""Confining a freshly forked worker: namespaces, user, limits, descriptors.

Runs in the child between fork and the first student cell. As root the
worker gets new mount, network, PID, IPC and UTS namespaces (no network, not
even loopback), a new root holding only the system folders and Python's own
paths read-only, a minimal /dev, its own /proc and a size-capped tmpfs as
working directory, and then drops to a uid of its own, so that kill(-1) and
RLIMIT_NPROC reach only its own processes. As any other user only the
resource limits and the scrubbed environment apply.
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


SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys")
DEVICES = ("null", "zero", "full", "random", "urandom")
WORKDIR_IN_ROOT = "/tmp"  # the worker's only writable folder, a size-capped tmpfs


def isolate_as_root(spec: dict) -> int:
    """New namespaces and a new root, then fork: returns 0 in the namespace's
    init (the worker proper) and the worker's pid in the parent, which stays
    outside as a root waiter and never runs student code.

    The new root is built from an allowlist, so nothing else on the machine
    (hidden tests, solutions, other checkouts, other submissions, results)
    exists for the worker: the system folders and Python's own paths, bound
    read-only at their usual places; a minimal /dev; a tmpfs /tmp."""
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC
                         | CLONE_NEWUTS), "unshare")
    _mount("none", "/", None, MS_REC | MS_PRIVATE)  # nothing below leaks to the host
    root, uid = spec["workdir"], spec["uid"]
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    _mount("tmpfs", _mkdir(root, WORKDIR_IN_ROOT), "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={spec['limits']['disk_mb']}m,mode=0700,uid={uid},gid={uid}")
    for path in (*SYSTEM_DIRS, *python_paths(spec["hide"])):
        if os.path.isdir(path):
            _bind_read_only(path, _mkdir(root, path))
    dev = _mkdir(root, "/dev")
    for name in DEVICES:
        if os.path.exists(f"/dev/{name}"):
            open(os.path.join(dev, name), "w").close()
            _mount(f"/dev/{name}", os.path.join(dev, name), None, MS_BIND)
    _mount("tmpfs", _mkdir(root, "/dev/shm"), "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=1777")
    _mkdir(root, "/proc")
    return os.fork()


def _mkdir(root: str, path: str) -> str:
    target = os.path.join(root, path.lstrip("/"))
    os.makedirs(target, mode=0o755, exist_ok=True)
    return target


def _bind_read_only(source: str, target: str) -> None:
    _mount(source, target, None, MS_BIND | MS_REC)
    _mount("none", target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def python_paths(hidden: list[str]) -> list[str]:
    """Where the interpreter, the standard library and site-packages live,
    leaving out any that is or holds a secret folder (the repository root on
    sys.path, for instance: the worker already imported what it needs)."""
    import sys
    found = {sys.prefix, sys.base_prefix, *(p for p in sys.path if p and os.path.isdir(p))}
    found = {os.path.realpath(p) for p in found} | found
    return sorted(p for p in found if not any(
        h == p or h.startswith(p.rstrip("/") + "/") for h in hidden))


def enter_new_root(spec: dict) -> None:
    """In the namespace's init: the new root, and a /proc of this namespace only."""
    os.chroot(spec["workdir"])
    os.chdir("/")
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
