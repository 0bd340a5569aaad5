"""Every place on this machine a worker's uid could write, found at start by
the mode whose workers write to the machine's own file system with nothing
but file permissions in their way ("uid": kernel/modes.py; Landlock's
allowlist gives "landlock" workers their own folder and character devices
alone: kernel/landlock.py).

A list of known temporary folders is the wrong shape for this: /run/lock
(also reached as /var/lock) is open to every user on Debian, and a machine
may have folders of its own. So the whole tree is walked by `find`, in a
child of the template (root) with a worker uid's real ids: access(2), which
find's -writable and -executable call, judges by them (permission bits,
ACLs and security modules all count), while the effective root lists what
the uid may pass through without listing.

What must stay true: every folder the uid can create entries in is found,
and so is every folder a uid of the workers' pool owns (a crashed grader's
worker folder, that uid's to write in): the workers' files there are then
swept and metered (kernel/sweep.py, kernel/disk.py). So is every regular
file the uid could write, which it could grow, or pass notes to a later
worker through, without owning it (the mode is then refused, naming it).
Nothing below a folder the uid cannot pass through is reachable, so it is
not walked; nor are file systems that hold no disk blocks (proc, sysfs,
cgroups, devpts...) or read-only mounts. Links are never followed. A walk
that fails, runs out of time or finds more than MAX_PLACES places is an
error, never an empty answer.
"""
from __future__ import annotations

import os
import subprocess
import threading

NO_DISK = frozenset({
    "proc", "sysfs", "cgroup", "cgroup2", "devpts", "securityfs", "debugfs", "tracefs",
    "bpf", "pstore", "configfs", "fusectl", "binfmt_misc", "autofs", "nsfs", "efivarfs",
    "selinuxfs", "rpc_pipefs", "hugetlbfs", "mqueue"})
"""Kernel file systems: no disk blocks behind them, and files that are not files."""
MAX_PLACES = 200
"""Writable places past which a machine is not one to grade on without namespaces."""
SECONDS = 120.0
"""How long the walk may take (about 2.5 s for 750,000 entries on a 2-core machine)."""
_HARMLESS = (b"No such file or directory", b"Permission denied")
"""What find says of a file gone meanwhile, or of a folder it may not list."""


def mounts_to_walk(mountinfo: str) -> list[str]:
    """The mount points of `mountinfo` (/proc/self/mountinfo's text) that hold
    files on a disk or in memory and are not mounted read-only."""
    points = []
    for line in mountinfo.splitlines():
        mount, sep, source = line.partition(" - ")
        fields, after = mount.split(), source.split()
        if not sep or len(fields) < 6 or not after:
            continue
        options = fields[5].split(",") + (after[2].split(",") if len(after) > 2 else [])
        if after[0] not in NO_DISK and "ro" not in options:
            points.append(_unescape(fields[4]))
    return sorted(set(points))


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash as octal escapes."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def find(starts: list[str] | None = None, seconds: float = SECONDS,
         owners: tuple[int, int] | None = None) -> dict:
    """As the caller's real uid: {"folders": [...], "files": [...]}, the
    folders it can create entries in and the regular files it can write,
    below `starts` (by default every mount point to walk), or {"error": "<why>"}.
    With `owners`, a range of uids [first, end) (the workers' pool), the folders
    any of them owns are among the folders too (a crashed grader's worker folder:
    its uid's next worker could write there), and are not walked further."""
    if starts is None:
        with open("/proc/self/mountinfo") as f:
            starts = mounts_to_walk(f.read())
    owned = [] if owners is None else [
        "(", "-type", "d", "-uid", f"+{owners[0] - 1}", "-uid", f"-{owners[1]}",
        "-printf", r"d%p\0", "-prune", ")", "-o"]
    command = ["find", *starts, "-xdev", *owned,
               "(", "-type", "d", "!", "-executable", "-prune", ")", "-o",
               "(", "-type", "d", "-o", "-type", "f", ")", "-writable", "-printf", r"%y%p\0"]
    try:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env={"PATH": "/usr/bin:/bin",
                                                             "LC_ALL": "C"})
    except OSError as exc:
        return {"error": f"find could not be run ({exc.strerror})"}
    late = threading.Event()
    timer = threading.Timer(seconds, lambda: (late.set(), proc.kill()))
    timer.start()
    complaints = bytearray()

    def drain():  # all of it, so that find never waits on a full pipe; the first 64 KB kept
        for chunk in iter(lambda: proc.stderr.read1(1 << 16), b""):
            complaints.extend(chunk[:(1 << 16) - len(complaints)])
    reader = threading.Thread(target=drain)
    reader.start()
    found: dict[bytes, set[str]] = {b"d": set(), b"f": set()}
    rest = b""
    try:
        for chunk in iter(lambda: proc.stdout.read1(1 << 16), b""):
            *records, rest = (rest + chunk).split(b"\0")
            for record in records:
                found.setdefault(record[:1], set()).add(os.fsdecode(record[1:]))
            if sum(len(paths) for paths in found.values()) > MAX_PLACES:
                proc.kill()
                return {"error": f"more than {MAX_PLACES} places on this machine are open "
                                 "to the workers' uids' writes"}
        returncode = proc.wait()
    finally:
        timer.cancel()
        proc.kill()
        reader.join()
    said = [line for line in bytes(complaints).splitlines() if not line.endswith(_HARMLESS)]
    if late.is_set():
        return {"error": f"the walk of the machine took more than {seconds:.0f} s"}
    if returncode not in (0, 1) or said:
        return {"error": "find could not walk the machine: " +
                         (said[0].decode(errors="replace")[:300] if said else f"exit {returncode}")}
    return {"folders": sorted(found[b"d"]), "files": sorted(found[b"f"])}
