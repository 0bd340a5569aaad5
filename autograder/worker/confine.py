"""Confining a freshly forked worker: cgroups, namespaces, user, limits, descriptors.

Runs in the child between fork and the first student cell. With namespaces
(as root, or inside a new user namespace where unprivileged ones are
allowed) the worker gets new mount, network, PID, IPC and UTS namespaces (no
network, not even loopback), a new root holding only the system folders and
Python's own paths read-only, a minimal /dev, its own /proc and a size-capped
tmpfs as working directory, and then loses every privilege: a uid of its own
(root) or every capability (user namespace). Without namespaces (mode
"landlock") the same allowlist is enforced by Landlock instead (see
template.py). Every confined worker ends with no_new_privs and the seccomp
filter of seccomp.py.
"""
from __future__ import annotations

import ctypes
import os
import resource
import signal
from pathlib import Path

from autograder import protocol

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
# flags of an existing mount that a remount inside a user namespace must keep
KEPT_FLAGS = ((os.ST_NOEXEC, MS_NOEXEC), (os.ST_NOATIME, MS_NOATIME),
              (os.ST_NODIRATIME, MS_NODIRATIME), (os.ST_RELATIME, MS_RELATIME))
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_CHILD_SUBREAPER = 1, 24, 36
PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 38, 47, 4

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


def join_cgroups(procs_files: list[str]) -> None:
    """Move this process into its worker's cgroups (before anything else, so
    that everything it and its descendants use is counted there)."""
    for path in procs_files:
        with open(path, "w") as f:
            f.write(str(os.getpid()))


OOM_SCORE_ADJ = Path("/proc/self/oom_score_adj")
WORKER_OOM_SCORE, TEMPLATE_OOM_SCORE = 1000, 500


def first_to_go_when_out_of_memory(score: int = WORKER_OOM_SCORE) -> None:
    """When the machine or the container runs out of memory, the kernel kills
    this process (and what it starts: they inherit the score) before the
    grader, whose score stays 0: a submission beyond its budget loses its own
    worker, never the batch or, on Gradescope, the results file. Raising
    one's own score needs no privilege; lowering it again needs one the
    worker lacks."""
    try:
        OOM_SCORE_ADJ.write_text(str(score))
    except OSError:
        pass  # no /proc: the memory limits are all there is


def isolate(spec: protocol.WorkerSpec, user_ns: bool) -> int:
    """New namespaces and a new root, then fork: returns 0 in the namespace's
    init (the worker proper) and the worker's pid in the parent, which stays
    outside as a waiter and never runs student code.

    With `user_ns` the namespaces belong to a new user namespace mapping only
    this process's own uid (the pool uid, taken first, when root), so no
    privilege is needed. The new root is built from an allowlist, so nothing
    else on the machine (hidden tests, solutions, other checkouts, other
    submissions, results, home folders) exists for the worker: the system
    folders and Python's own paths, bound read-only at their usual places; a
    minimal /dev; a tmpfs /tmp; an empty /sys/fs/cgroup. spec.read holds
    those Python paths, chosen by the grader (the template never learns
    which folders are secret)."""
    flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
    if user_ns and spec.uid is not None:
        become(spec.uid)
    uid, gid = (os.getuid(), os.getgid()) if user_ns else (spec.uid, spec.uid)
    _check(_libc.unshare(flags | (CLONE_NEWUSER if user_ns else 0)), "unshare")
    if user_ns:
        _map_own_ids(uid, gid)
    _mount("none", "/", None, MS_REC | MS_PRIVATE)  # nothing below leaks to the host
    root = spec.workdir
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    _mount("tmpfs", _mkdir(root, WORKDIR_IN_ROOT), "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={spec.limits.disk_mb}m,mode=0700,uid={uid},gid={gid}")
    for path in (*SYSTEM_DIRS, *spec.read):
        if os.path.isdir(path):
            _bind_read_only(path, _mkdir(root, path))
    if os.path.isdir(os.path.join(root, "sys/fs/cgroup")):  # no limit of its own to raise
        _mount("tmpfs", os.path.join(root, "sys/fs/cgroup"), "tmpfs",
               MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555")
    dev = _mkdir(root, "/dev")
    for name in DEVICES:
        if os.path.exists(f"/dev/{name}"):
            open(os.path.join(dev, name), "w").close()
            _mount(f"/dev/{name}", os.path.join(dev, name), None, MS_BIND)
    _mount("tmpfs", _mkdir(root, "/dev/shm"), "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=1777")
    _mkdir(root, "/proc")
    return os.fork()


def _map_own_ids(uid: int, gid: int) -> None:
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")  # required before an unprivileged gid_map; nobody gains groups
    with open("/proc/self/uid_map", "w") as f:
        f.write(f"{uid} {uid} 1")
    with open("/proc/self/gid_map", "w") as f:
        f.write(f"{gid} {gid} 1")


def _mkdir(root: str, path: str) -> str:
    target = os.path.join(root, path.lstrip("/"))
    os.makedirs(target, mode=0o755, exist_ok=True)
    return target


def _bind_read_only(source: str, target: str) -> None:
    _mount(source, target, None, MS_BIND | MS_REC)
    kept = os.statvfs(source).f_flag
    flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV
    flags |= sum(ms for st, ms in KEPT_FLAGS if kept & st)  # a user namespace may not drop them
    _mount("none", target, None, flags)


def enter_new_root(spec: protocol.WorkerSpec) -> None:
    """In the namespace's init: the new root, and a /proc of this namespace only."""
    os.chroot(spec.workdir)
    os.chdir("/")
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)


def become(uid: int) -> None:
    """Root to the pool uid: every capability is lost with it."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> None:
    """In a user namespace the uid stays; the capabilities it holds there go:
    bounding set, ambient set, then effective/permitted/inheritable."""
    cap = 0
    while _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0:
        cap += 1
    _check(_libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clear ambient")
    _check(_libc.capset(ctypes.byref(_CapHeader(0x20080522, 0)), (_CapData * 2)()), "capset")


def parent_death_signal(sig: int) -> None:
    """`sig` when the parent dies (set after the last credential change,
    which would clear it): a worker never outlives the grader's template."""
    parent = os.getppid()
    _check(_libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0), "PR_SET_PDEATHSIG")
    if parent not in (0, 1) and os.getppid() != parent:
        os._exit(0)  # the parent died before the signal was armed


def become_subreaper() -> None:
    """Orphaned descendants (setsid, double fork) are reparented here, not to init."""
    _check(_libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "PR_SET_CHILD_SUBREAPER")


def no_new_privs() -> None:
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "PR_SET_NO_NEW_PRIVS")


def apply_limits(limits: protocol.WorkerLimits) -> None:
    """Kernel limits: a backstop behind the grader's wall-clock timeouts and
    the submission's cgroup. `as_mb` is what each process may map beyond
    what the template maps; `nproc` is set where the count is the worker's
    own (its uid, or its user namespace)."""
    vm_kb = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0])
    memory = vm_kb * 1024 + limits.as_mb * 2**20
    for name, value in (
        ("RLIMIT_AS", memory),
        ("RLIMIT_CPU", limits.cpu_seconds),
        ("RLIMIT_FSIZE", limits.disk_mb * 2**20),
        ("RLIMIT_NOFILE", 256),
        ("RLIMIT_CORE", 0),
    ):
        resource.setrlimit(getattr(resource, name), (value, value))
    if limits.nproc:
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.nproc, limits.nproc))
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
