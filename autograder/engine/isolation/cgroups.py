"""Per-worker cgroups: one memory budget and one process count per submission.

What must stay true: a worker writes itself into its cgroups before anything
else runs in it (worker/confine.py), so every process it and the student's
code start is counted; the memory limit is the budget of all of them
together, not of each. Where no cgroup can be made (not root and no
delegated subtree, or a read-only /sys/fs/cgroup as in Docker's default
setup) `create` returns None and the grader falls back to per-process
limits (engine/isolation/sandbox.py says which in its one line).

Layouts: cgroup v1 (a `memory` and a `pids` hierarchy, writable as root) and
cgroup v2 (as root: a folder at the hierarchy's root; as another user: the
cgroup the grader runs in, when it is delegated to that user and holds only
the grader, e.g. under `systemd-run --user --scope -p Delegate=yes`).
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

from autograder.engine.isolation.processes import INITIAL_PID_NAMESPACE, alive, pid_namespace

MOUNTINFO, OWN_CGROUP = Path("/proc/self/mountinfo"), Path("/proc/self/cgroup")
# A batch folder's name (batch_tag): autograder-<PID namespace>.<grader pid>-<suffix>,
# and, in a delegated v2 subtree, the grader's own leaf beside it (-grader). The
# namespace is in the name because a pid means something only in its own namespace:
# graders in other PID namespaces (containers, tests) share this hierarchy.
BATCH_NAME = re.compile(r"autograder-(\d+)\.(\d+)-[A-Za-z0-9_]+(-grader)?")


def batch_tag(suffix: str) -> str:
    """The name of this grader's batch folders, unique on the machine."""
    return f"autograder-{pid_namespace()}.{os.getpid()}-{suffix}"


def _mounts(mountinfo: Path = MOUNTINFO) -> list[tuple[str, str, str, set[str]]]:
    """(mount root, mount point, fstype, super options) of every cgroup mount."""
    found = []
    for line in mountinfo.read_text().splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            found.append((fields[3], fields[4], tail[0], set(tail[2].split(","))))
    return found


def _own_paths(own: Path = OWN_CGROUP) -> dict[str, str]:
    """Controller name ("" for v2) -> this process's cgroup path."""
    paths = {}
    for line in own.read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path
    return paths


def _under(mount_root: str, mount_point: str, path: str) -> Path | None:
    if mount_root != "/" and not (path + "/").startswith(mount_root.rstrip("/") + "/"):
        return None
    rel = path[len(mount_root.rstrip("/")):] if mount_root != "/" else path
    return Path(mount_point + rel)


class Cgroups:
    """The batch's cgroup folders, one per controller hierarchy; a worker gets
    a subfolder in each."""

    def __init__(self, version: str, batch: dict[str, Path]):
        self.version = version
        self.batch = batch  # "memory"/"pids" (v1) or "" (v2) -> batch folder

    def describe(self) -> str:
        return f"cgroup {self.version}"

    def make(self, name: str, memory_bytes: int, processes: int) -> list[str]:
        """Create the worker's cgroups; return the cgroup.procs files it joins."""
        procs = []
        for controller, batch in self.batch.items():
            if not batch.is_dir():  # removed under us (by hand, another tool): made again
                _make_batch(batch, self.version)
            folder = batch / name
            folder.mkdir()
            for file, value, optional in self._settings(controller, memory_bytes, processes):
                if not optional or (folder / file).exists():
                    (folder / file).write_text(str(value))
            procs.append(str(folder / "cgroup.procs"))
        return procs

    def _settings(self, controller: str, memory: int, processes: int):
        """(file, value, optional): swap files exist only with swap accounting."""
        if self.version == "v2":
            return [("memory.max", memory, False), ("memory.swap.max", 0, True),
                    ("pids.max", processes, False)]
        if controller == "memory":  # memsw (memory + swap) must not be below the memory limit
            return [("memory.limit_in_bytes", memory, False),
                    ("memory.memsw.limit_in_bytes", memory, True)]
        return [("pids.max", processes, False)]

    def oom_kills(self, name: str) -> int | None:
        """The OOM kills in the worker's memory cgroup (its budget reached)."""
        memory = self.batch.get("memory" if self.version == "v1" else "")
        return oom_kills(memory / name, self.version) if memory else None

    def remove(self, name: str, seconds: float = 2.0) -> None:
        """Remove the worker's folders (its processes are gone; the kernel may
        take a moment to let go of the last one)."""
        for batch in self.batch.values():
            _rmdir(batch / name, seconds)

    def close(self) -> None:
        for batch in self.batch.values():
            for leftover in (p for p in batch.iterdir() if p.is_dir()):
                _rmdir(leftover, 1.0)
            _rmdir(batch, 1.0)


def _make_batch(folder: Path, version: str) -> None:
    """A batch folder; in v2 its children get the memory and pids controllers."""
    folder.mkdir()
    if version == "v2":
        (folder / "cgroup.subtree_control").write_text("+memory +pids")


def _rmdir(folder: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return  # left for the administrator; an empty cgroup costs nothing
            time.sleep(0.01)


def sweep_stale(parent: Path) -> list[str]:
    """Remove the batch folders under `parent` of graders that are gone without
    closing them (killed, crashed): their workers are dead, so the folders are
    empty. A folder of a grader in this PID namespace goes when its grader's
    pid is gone (kept while that pid is alive, or reused); one of a grader in
    another PID namespace goes when no process is left in that namespace,
    judged only from the initial namespace by root (who sees every process).
    A folder still holding a process cannot be removed and stays. Returns
    the names removed."""
    removed, namespace = [], pid_namespace()
    try:
        entries = [p for p in parent.iterdir() if p.is_dir()]
    except OSError:
        return removed
    live: set[int] | None = None  # PID namespaces with a process, read when first needed
    for folder in entries:
        match = BATCH_NAME.fullmatch(folder.name)
        if match is None:
            continue
        grader_namespace, grader = int(match.group(1)), int(match.group(2))
        if grader_namespace == namespace:
            if alive(grader):
                continue
        else:
            live = _live_pid_namespaces() if live is None else live
            if not live or grader_namespace in live:
                continue
        for child in (p for p in folder.iterdir() if p.is_dir()):
            _rmdir(child, 0)
        _rmdir(folder, 0)
        if not folder.exists():
            removed.append(folder.name)
    return removed


def _live_pid_namespaces(proc: Path = Path("/proc")) -> set[int]:
    """The PID namespaces that hold a process; empty (nothing judged) unless
    this process is root in the initial PID namespace, the one place from
    which every process, and every namespace's, can be seen."""
    if os.geteuid() != 0 or pid_namespace() != INITIAL_PID_NAMESPACE:
        return set()
    found = set()
    for entry in os.listdir(proc):
        if entry.isdigit():
            try:
                found.add(os.stat(proc / entry / "ns" / "pid").st_ino)
            except OSError:
                pass  # gone meanwhile
    return found


def create(tag: str, mountinfo: Path = MOUNTINFO, own: Path = OWN_CGROUP,
           companions: tuple[int, ...] = ()) -> Cgroups | None:
    """The batch's cgroups, or None where this process cannot make them.
    `companions`: this grader's own helpers sharing its cgroup (its template
    factories), which move with it where it moves (v2)."""
    mounts, paths = _mounts(mountinfo), _own_paths(own)
    v1 = {opt: (root, point) for root, point, kind, opts in mounts if kind == "cgroup"
          for opt in opts & {"memory", "pids"}}
    if "memory" in v1:
        return _create_v1(tag, v1, paths)
    v2 = [(root, point) for root, point, kind, _ in mounts if kind == "cgroup2"]
    return _create_v2(tag, v2[0], paths.get("", "/"), companions) if v2 else None


def _create_v1(tag, mounts, paths) -> Cgroups | None:
    batch = {}
    for controller, (root, point) in mounts.items():
        base = _under(root, point, paths.get(controller, "/"))
        if base is not None:
            sweep_stale(base)
        try:
            _make_batch(base / tag, "v1")
        except (OSError, TypeError):
            if controller == "memory":
                _drop(batch)
                return None
            continue  # no pids cgroup: RLIMIT_NPROC still counts the worker's processes
        batch[controller] = base / tag
    return Cgroups("v1", batch)


def _drop(batch: dict[str, Path]) -> None:
    for folder in batch.values():
        _rmdir(folder, 0)


def _create_v2(tag, mount, own_path, companions=()) -> Cgroups | None:
    root, point = mount
    base = _under(root, point, own_path)
    candidates = [(Path(point), True)] if os.geteuid() == 0 else []
    candidates += [(base, False)] if base is not None else []
    for parent, is_root in candidates:
        batch = _v2_batch(parent, tag, is_root, companions)
        if batch is not None:
            return Cgroups("v2", {"": batch})
    return None


def _v2_batch(parent: Path, tag: str, is_root: bool, companions=()) -> Path | None:
    """A batch folder under `parent` with memory and pids enabled for its
    children. `parent` must have no process of its own to enable them: the
    hierarchy's root is exempt; the grader's own cgroup qualifies when the
    grader (and its `companions`) are its only processes, after moving them
    into a leaf of their own."""
    try:
        if not {"memory", "pids"} <= set((parent / "cgroup.controllers").read_text().split()):
            return None
        procs = (parent / "cgroup.procs").read_text().split()
        ours = [str(os.getpid()), *map(str, companions)]
        if not is_root and (str(os.getpid()) not in procs or set(procs) - set(ours)):
            return None
        sweep_stale(parent)
        if not is_root:
            (parent / f"{tag}-grader").mkdir()
            for pid in (p for p in ours if p in procs):  # one pid per write
                (parent / f"{tag}-grader" / "cgroup.procs").write_text(pid)
        (parent / "cgroup.subtree_control").write_text("+memory +pids")
        _make_batch(parent / tag, "v2")
        return parent / tag
    except OSError:
        return None


UNLIMITED = 1 << 60  # v1 reports "no limit" as a number near 2**63
LIMIT_FILE = {"v1": "memory.limit_in_bytes", "v2": "memory.max"}
EVENTS_FILE = {"v1": "memory.oom_control", "v2": "memory.events"}


def _own_memory_cgroups(mountinfo: Path, own: Path) -> list[tuple[Path, Path, str]]:
    """(this process's memory cgroup folder, its mount point, "v1" or "v2") for
    every mount that shows it (a hybrid layout has both kinds; a container's own,
    read-only /sys/fs/cgroup shows the container's cgroup as its root)."""
    try:
        mounts, paths = _mounts(mountinfo), _own_paths(own)
    except OSError:
        return []
    found = []
    for root, point, kind, opts in mounts:
        if kind == "cgroup" and "memory" in opts:
            version, path = "v1", paths.get("memory", "/")
        elif kind == "cgroup2" and "" in paths:
            version, path = "v2", paths[""]
        else:
            continue
        folder = _under(root, point, path)
        if folder is not None:
            found.append((folder, Path(point), version))
    return found


def tree_memory_limit(mountinfo: Path = MOUNTINFO, own: Path = OWN_CGROUP) -> int | None:
    """The memory this process and everything it starts may use together: the
    smallest limit of its memory cgroup and of the ancestors its mounts show,
    in bytes; None where none is set or none can be read."""
    found = []
    for folder, point, version in _own_memory_cgroups(mountinfo, own):
        found += [_read_limit(step / LIMIT_FILE[version]) for step in (folder, *folder.parents)
                  if step == point or point in step.parents]
    found = [n for n in found if n is not None and n < UNLIMITED]
    return min(found) if found else None


def tree_oom_kills(mountinfo: Path = MOUNTINFO, own: Path = OWN_CGROUP) -> int | None:
    """How many processes the kernel has killed for the memory limit of this
    process's own cgroup (a container's); None where it cannot be read."""
    counts = [oom_kills(folder, version)
              for folder, _, version in _own_memory_cgroups(mountinfo, own)]
    counts = [n for n in counts if n is not None]
    return max(counts) if counts else None


def oom_kills(folder: Path, version: str) -> int | None:
    """The OOM kills a memory cgroup folder reports (v1 and v2 call the count oom_kill)."""
    try:
        text = (folder / EVENTS_FILE[version]).read_text()
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key == "oom_kill" and value.strip().isdigit():
            return int(value)
    return None


def _read_limit(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
