"""The sandbox modes, declared once: what each needs, what it gives, how its line reads.

Both sides read this table and nothing else compares mode names: the grader
(engine/isolation/sandbox.py) checks each mode's needs, starts a worker in the first
that works and prints its line; the template (worker/template.py) carries
the chosen mode out by its fields. MODES is in order of preference.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mode:
    name: str
    needs: tuple[str, ...]
    """Prerequisites, by name (engine/isolation/sandbox.NEEDS checks each): "root", "user
    namespaces", "landlock", "libseccomp", "python open to others" (workers run
    as uids of their own without a new root), "secrets closed to others"
    (file permissions keep them out, of stat() too), "writes swept" (every place
    on the machine the workers' uids could write is swept and metered)."""
    confine: str
    """How the template confines the forked worker (worker/template.CONFINE):
    "namespaces", "userns", "waiter" (a root waiter, the worker on its own
    uid) or "none"."""
    namespaces: bool
    """Its own mount, PID, network, IPC and UTS namespaces and an allowlisted
    root: killing its init kills every process it started, and it shares no
    /tmp, IPC or process table with the machine (no sweep of shared folders)."""
    user_namespace: bool
    """The namespaces belong to a user namespace of the worker's own: its
    process count (RLIMIT_NPROC) is counted there, its waiter included."""
    landlock: bool
    """Landlock on the allowlist (the namespace modes' root, as rules)."""
    seccomp: bool
    """no_new_privs and the seccomp filter (kernel/seccomp.py)."""
    meters_disk: bool
    """The worker writes to the machine's disk (no tmpfs of its own): its
    waiter meters its files and stops it beyond disk_mb (kernel/disk.py)."""
    gives: str
    """What defends the batch, for the mode line ({user}: who the worker runs as)."""
    lacks: str = ""
    """What it lacks next to `namespaces`, for the mode line ("" for none)."""


NAMESPACES = Mode(
    "namespaces", ("root",), "namespaces", namespaces=True, user_namespace=False,
    landlock=False, seccomp=True, meters_disk=False,
    gives="root: mount, PID, network and IPC namespaces, allowlisted root, {user}")
USERNS = Mode(
    "userns", ("user namespaces",), "userns", namespaces=True, user_namespace=True,
    landlock=False, seccomp=True, meters_disk=False,
    gives="unprivileged user namespace: mount, PID, network and IPC namespaces, "
          "allowlisted root, {user}")
LANDLOCK = Mode(
    "landlock", ("root", "landlock", "libseccomp", "python open to others",
                 "secrets closed to others"), "waiter",
    namespaces=False, user_namespace=False, landlock=True, seccomp=True, meters_disk=True,
    gives="namespaces refused: {user}, Landlock ABI {abi} on the allowlist, seccomp, "
          "no_new_privs; no secret path open to the workers' uids, not even to stat() "
          "(checked at start: Landlock does not govern stat)")
UID = Mode(
    "uid", ("root", "libseccomp", "python open to others", "secrets closed to others",
            "writes swept"),
    "waiter", namespaces=False, user_namespace=False, landlock=False, seccomp=True,
    meters_disk=True,
    gives="namespaces and Landlock refused: {user}, seccomp (no socket), no_new_privs, "
          "the uid swept after each worker, in every folder it can write (found at "
          "start); the wall is file permissions, and no secret path is open to the "
          "workers' uids (checked at start)",
    lacks="the worker can read whatever every user of this machine may read, other "
          "processes' command lines in /proc among it")
NONE = Mode(
    "none", (), "none", namespaces=False, user_namespace=False, landlock=False, seccomp=False,
    meters_disk=False, gives="UNSAFE, --unsafe-no-sandbox: {user}, resource limits only",
    lacks="student code can read what that user can read and reach the network")

MODES = (NAMESPACES, USERNS, LANDLOCK, UID)
"""The confined modes, in order of preference; NONE only when asked for."""
BY_NAME = {mode.name: mode for mode in (*MODES, NONE)}
