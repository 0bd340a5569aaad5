"""Landlock: the kernel's unprivileged file-system and TCP confinement, through
its three system calls (ctypes; no package is needed).

What must stay true: after `restrict`, this process and its descendants can
read only below the allowlisted paths, write only below the worker's own
folder (and to the character devices it is given, /dev/null and the like:
a "device" that is a regular file, as in some broken containers, is not
granted, since its writes would take disk nobody meters), execute nothing, bind or connect no
TCP port (ABI 4+), and signal or reach abstract sockets of no process outside
their own Landlock domain (ABI 6+). Rights an older kernel does not know are
simply not handled there; `missing(abi)` says which.
"""
from __future__ import annotations

import ctypes
import os
import stat

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446  # same on every arch
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH, RULE_NET_PORT = 1, 2

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

READ = READ_FILE | READ_DIR
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV

MISSING = {  # ABI: what kernels below it cannot confine (and what covers for it)
    2: "links and renames across folders are refused outright",
    3: "truncate is governed by file permissions only",
    4: "no TCP rules (the seccomp filter's socket refusal covers the network)",
    5: "device ioctl is not governed",
    6: "signals and abstract sockets are not scoped (the worker's own uid and the "
       "seccomp filter cover them)",
}

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is packed: 12 bytes
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi_version() -> int:
    """The kernel's Landlock ABI, 0 when Landlock is absent or disabled."""
    version = _libc.syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                            ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(int(version), 0)


def missing(abi: int) -> list[str]:
    return [text for needed, text in sorted(MISSING.items()) if abi < needed]


def fs_rights(abi: int) -> int:
    rights = (1 << 13) - 1  # ABI 1: execute .. make_sym
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


def restrict(read: list[str], write: list[str], devices: list[str]) -> int:
    """Confine this process; returns the ABI used. `read`: folders to read,
    `write`: folders with every right but execute, `devices`: files to read
    and write. Raises OSError if the kernel refuses (no Landlock)."""
    abi = abi_version()
    if abi < 1:
        raise OSError("Landlock is not available in this kernel")
    handled = fs_rights(abi)
    attr = _RulesetAttr(handled, NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0,
                        SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24  # the struct as this ABI knows it
    ruleset = _call(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                    ctypes.c_uint32(0), what="landlock_create_ruleset")
    try:
        for path in read:
            _allow(ruleset, path, READ)
        for path in write:
            _allow(ruleset, path, handled & ~EXECUTE)
        for path in devices:
            _allow(ruleset, path, (READ_FILE | WRITE_FILE) & handled, device=True)
        _call(SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0),
              what="landlock_restrict_self")
    finally:
        os.close(ruleset)
    return abi


def _allow(ruleset: int, path: str, rights: int, device: bool = False) -> None:
    """Grant `rights` below `path`; with `device`, only if it is a character device."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # an allowlisted path this machine lacks
    try:
        if device and not stat.S_ISCHR(os.fstat(fd).st_mode):
            return
        if not os.path.isdir(path):
            rights &= FILE_RIGHTS
        rule = _PathBeneath(rights, fd)
        _call(SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH),
              ctypes.byref(rule), ctypes.c_uint32(0), what=f"landlock_add_rule {path}")
    finally:
        os.close(fd)


def _call(number: int, *args, what: str) -> int:
    result = _libc.syscall(number, *args)
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return int(result)
