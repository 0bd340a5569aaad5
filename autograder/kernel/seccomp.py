"""The worker's system-call filter, built with libseccomp (through ctypes).

What must stay true: once `install` returns, this process and every process
it starts can create no socket (the channel to the grader is an inherited
socketpair; socketpair(AF_UNIX) stays allowed), no SysV or POSIX message
queue IPC object, no namespace (unshare, setns, clone with a namespace
flag), no mount, no keyring entry, no BPF program, no perf event, no
io_uring instance (its operations would bypass this filter), and cannot
trace or read another process's memory. Every refusal is an error (EPERM)
the student's code can catch, never a kill. The filter is the kernel's own
compiled from these rules by libseccomp: nothing here assembles BPF.
"""
from __future__ import annotations

import ctypes
import errno

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_NE, SCMP_CMP_MASKED_EQ = 1, 7
AF_UNIX = 1
NAMESPACE_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000,  # NS, CGROUP, UTS, IPC
                   0x10000000, 0x20000000, 0x40000000)  # USER, PID, NET

DENIED = (
    # other processes' memory
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
    # IPC objects that outlive the process
    "shmget", "shmat", "shmctl", "semget", "semop", "semtimedop", "semctl",
    "msgget", "msgsnd", "msgrcv", "msgctl",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    # namespaces and mounts
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig",
    "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
    # kernel interfaces a notebook never needs
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "name_to_handle_at", "open_by_handle_at",
    # the network: no socket of any family
    "socket",
)
EXEC = ("execve", "execveat")


class _ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


def _errno_action(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)  # SCMP_ACT_ERRNO(code)


def load_library() -> ctypes.CDLL:
    """libseccomp (Debian/Ubuntu: the libseccomp2 package); OSError if absent."""
    lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                           ctypes.c_uint, ctypes.POINTER(_ArgCmp)]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    return lib


class Filter:
    """A filter under construction: everything is allowed but what `deny` adds."""

    def __init__(self, lib: ctypes.CDLL | None = None):
        self.lib = lib or load_library()
        self.ctx = self.lib.seccomp_init(SCMP_ACT_ALLOW)
        if not self.ctx:
            raise OSError("seccomp_init failed")

    def deny(self, name: str, *conditions: _ArgCmp, code: int = errno.EPERM) -> None:
        """Make `name` fail with `code` (when every condition on its arguments holds)."""
        number = self.lib.seccomp_syscall_resolve_name(name.encode())
        if number < 0:  # unknown to this libseccomp: too new to matter here
            return
        array = (_ArgCmp * len(conditions))(*conditions) if conditions else None
        if self.lib.seccomp_rule_add_array(self.ctx, _errno_action(code), number,
                                           len(conditions), array) != 0:
            raise OSError(f"seccomp rule for {name} refused")

    def deny_namespace_clones(self) -> None:
        for flag in NAMESPACE_FLAGS:
            self.deny("clone", _ArgCmp(0, SCMP_CMP_MASKED_EQ, flag, flag))
        # clone3 passes its flags in memory a filter cannot read: ENOSYS makes
        # the C library fall back to clone, whose flags are checked above
        self.deny("clone3", code=errno.ENOSYS)

    def load(self) -> None:
        """Install into this process (libseccomp sets no_new_privs first)."""
        try:
            if self.lib.seccomp_load(self.ctx) != 0:
                raise OSError("seccomp_load failed")
        finally:
            self.lib.seccomp_release(self.ctx)


def install(allow_exec: bool = True) -> None:
    """The worker's filter. With allow_exec False, execve is refused too
    (where memory is bounded per process, a new program would start with a
    fresh address space)."""
    f = Filter()
    for name in DENIED + (() if allow_exec else EXEC):
        f.deny(name)
    f.deny("socketpair", _ArgCmp(0, SCMP_CMP_NE, AF_UNIX, 0))
    f.deny_namespace_clones()
    f.load()
