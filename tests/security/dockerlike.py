"""Run a command as root the way Docker's default profile runs a container:

    python tests/security/dockerlike.py COMMAND [ARG ...]

Docker's default capability set (CAP_SYS_ADMIN, CAP_SYS_PTRACE, CAP_SYS_RESOURCE,
... dropped from the bounding set, through setpriv) and the part of Docker's
default seccomp profile that matters to the sandbox: without CAP_SYS_ADMIN,
unshare, setns, mount, umount2, pivot_root, keyctl, add_key, request_key,
bpf and perf_event_open fail with EPERM, clone with a namespace flag fails
with EPERM and clone3 with ENOSYS. Landlock's and seccomp's own system calls
stay allowed, as in Docker's profile. (Dropping CAP_SYS_ADMIN alone is not
enough: root can still create a user namespace, which Docker's profile
refuses.)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from autograder.worker.seccomp import Filter  # noqa: E402

DOCKER_CAPS = ("chown", "dac_override", "fowner", "fsetid", "kill", "setgid", "setuid",
               "setpcap", "net_bind_service", "net_raw", "sys_chroot", "mknod",
               "audit_write", "setfcap")
NEEDS_SYS_ADMIN = ("unshare", "setns", "mount", "umount2", "pivot_root", "keyctl", "add_key",
                   "request_key", "bpf", "perf_event_open", "fsopen", "fsconfig", "fsmount",
                   "fspick", "move_mount", "open_tree", "mount_setattr")


def main(argv: list[str]) -> None:
    f = Filter()
    for name in NEEDS_SYS_ADMIN:
        f.deny(name)
    f.deny_namespace_clones()
    f.load()
    bounding = "-all," + ",".join(f"+{c}" for c in DOCKER_CAPS)
    os.execvp("setpriv", ["setpriv", "--bounding-set", bounding, "--inh-caps", "-all",
                          "--", *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
