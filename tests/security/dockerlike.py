"""Run a command as root the way Docker's default profile runs a container:

    python tests/security/dockerlike.py [--refuse-landlock] COMMAND [ARG ...]

Docker's default capability set (CAP_SYS_ADMIN, CAP_SYS_PTRACE, CAP_SYS_RESOURCE,
... dropped from the bounding set, through setpriv) and the part of Docker's
default seccomp profile that matters to the sandbox: without CAP_SYS_ADMIN,
unshare, setns, mount, umount2, pivot_root, keyctl, add_key, request_key,
bpf and perf_event_open fail with EPERM, clone with a namespace flag fails
with EPERM and clone3 with ENOSYS. Landlock's and seccomp's own system calls
stay allowed, as in Docker's profile; with --refuse-landlock Landlock's fail
with ENOSYS, as on a host kernel without it (before 5.13, or not among its
LSMs) or a profile that does not know them. (Dropping CAP_SYS_ADMIN alone is
not enough: root can still create a user namespace, which Docker's profile
refuses.)

It runs from the repository or from a copy beside a copy of
autograder/kernel/seccomp.py (a container that hides the repository).
"""
from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
try:
    from autograder.kernel.seccomp import Filter
except ImportError:
    sys.path.insert(0, str(HERE))
    from seccomp import Filter  # type: ignore[no-redef]

DOCKER_CAPS = ("chown", "dac_override", "fowner", "fsetid", "kill", "setgid", "setuid",
               "setpcap", "net_bind_service", "net_raw", "sys_chroot", "mknod",
               "audit_write", "setfcap")
NEEDS_SYS_ADMIN = ("unshare", "setns", "mount", "umount2", "pivot_root", "keyctl", "add_key",
                   "request_key", "bpf", "perf_event_open", "fsopen", "fsconfig", "fsmount",
                   "fspick", "move_mount", "open_tree", "mount_setattr")
LANDLOCK = ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self")


def main(argv: list[str]) -> None:
    refuse_landlock = argv[:1] == ["--refuse-landlock"]
    argv = argv[1:] if refuse_landlock else argv
    f = Filter()
    for name in NEEDS_SYS_ADMIN:
        f.deny(name)
    f.deny_namespace_clones()
    for name in LANDLOCK if refuse_landlock else ():
        f.deny(name, code=errno.ENOSYS)
    f.load()
    bounding = "-all," + ",".join(f"+{c}" for c in DOCKER_CAPS)
    os.execvp("setpriv", ["setpriv", "--bounding-set", bounding, "--inh-caps", "-all",
                          "--", *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
