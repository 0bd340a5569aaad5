"""Starting and killing untrusted workers.

One template process per batch (started with a scrubbed environment and no
inherited descriptors but its control socket) forks a worker per request;
each is talked to through a WorkerConnection (connection.py). When the batch
ends, the template kills every worker still running, even one the grader
stopped talking to.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import socket
import subprocess
import tempfile
from pathlib import Path

from autograder import paths, protocol
from autograder.engine.isolation import cgroups, memory_budget, meters, probe, scratch
from autograder.engine.isolation import sandbox as sandbox_mod
from autograder.engine.config import Config
from autograder.engine.isolation.connection import WorkerConnection, WorkerDied, WorkerTimeout
from autograder.engine.isolation.orders import Orders
from autograder.engine.isolation.template_process import TemplateProcess
from autograder.engine.isolation.uidpool import UidPool, UidsUnavailable
from autograder.kernel import allowlist, landlock

__all__ = ["Template", "WorkerConnection", "WorkerDied", "WorkerTimeout"]
"""The engine's one door to its workers (a connection's classes are connection.py's)."""


def running_as_root() -> bool:
    return os.geteuid() == 0


class Template:
    """The forking template for one assignment's batch, and the sandbox its
    workers get (chosen once, here, before any submission is graded)."""

    def __init__(self, config: Config, hide: list[Path], allow_unsafe: bool = False,
                 uid_pool_size: int | None = None, use_cgroups: bool = True,
                 workers_at_once: int = 1):
        self.config = config
        # the package (hidden tests, references) and the grading user's home are
        # always secret; a Python path holding either is left out of the workers' view
        self.hide = [str(p) for p in hide] + [str(paths.PACKAGE), str(Path.home())]
        self.live: set[WorkerConnection] = set()  # killed by close() if still running
        self.closing = False  # close() began: no more workers (an interrupted batch's threads)
        scratch.remove_stale()  # graders that died left them: uid mode would sweep them all
        self.workers_folder = scratch.Scratch()
        self.scratch = self.workers_folder.path
        self.names = itertools.count(1)  # the workers' cgroup names
        tag = cgroups.batch_tag(self.scratch.name.rsplit('-', 1)[-1])
        self.sandbox = sandbox_mod.Sandbox(  # cgroups first: v2 may move this process
            "none", None, cgroups.create(tag) if use_cgroups else None, landlock.abi_version())
        self.process = TemplateProcess(config, self.scratch)
        self.orders = Orders(self.process, self.sandbox)
        if running_as_root():
            self.sandbox.uids = UidPool(self.orders.sweep, uid_pool_size)
        try:
            mode = sandbox_mod.choose(self._probe, allow_unsafe,
                                      sandbox_mod.Needs(self.hide, self.orders.audit,
                                                        self.orders.scan, self.sandbox))
        except sandbox_mod.SandboxUnavailable:
            self.close()
            raise
        self._fit_memory(workers_at_once)
        self._use(mode)

    @property
    def proc(self) -> subprocess.Popen:
        """The template process now running (a new one after it died)."""
        return self.process.proc

    @property
    def closed(self) -> bool:
        """The control socket is closed: no template is started again."""
        return self.process.closed

    def _fit_memory(self, workers: int) -> None:
        """Lower memory_mb where the whole process tree has a limit (a
        container's) that `workers` workers at the configured budget would
        exceed beside the grader and the template (engine/isolation/memory_budget.py)."""
        limits = self.config.limits
        fitted, self.sandbox.memory_note = memory_budget.fit(
            limits.memory_mb, cgroups.tree_memory_limit(), ["self", self.proc.pid], workers)
        if fitted != limits.memory_mb:
            self.config = dataclasses.replace(
                self.config, limits=dataclasses.replace(limits, memory_mb=fitted))

    def line(self) -> str:
        """The sandbox's one line, with the limits workers really get."""
        return self.sandbox.line(self.config.limits)

    def _use(self, mode: str) -> None:
        """Workers spawned from now on are confined in `mode`, with its limits."""
        self.sandbox.mode = mode
        self.limits = self.sandbox.worker_limits(self.config.limits)

    def _probe(self, mode: str) -> str | None:
        """None if a worker starts and runs in `mode`, else why not."""
        self._use(mode)
        return probe.why_not(self.spawn)

    def spawn(self) -> "WorkerConnection":
        if self.closing:
            raise WorkerDied("the batch is stopping")
        try:
            uid = self.sandbox.uids.acquire() if self.sandbox.uids else None
        except UidsUnavailable as exc:
            raise WorkerDied(f"no uid for the worker ({exc})") from None
        name = f"w{next(self.names)}"
        cleanup = functools.partial(self._cleanup, uid, name)
        try:
            workdir = Path(tempfile.mkdtemp(prefix="w", dir=self.scratch))
            if uid is not None:
                os.chown(workdir, uid, uid)
            procs = self._cgroups(name)
            spec = protocol.encode_order(protocol.WorkerSpec(
                sandbox=self.sandbox.mode, uid=uid, workdir=str(workdir),
                read=tuple(allowlist.python_paths(self.hide, self.process.python)),
                cgroups=tuple(procs), seed=self.config.seed, limits=self.limits,
                forbid=tuple(self.config.forbid), shared=self.sandbox.shared))
        except protocol.ProtocolError as exc:  # a limit of a type the kernel cannot take
            cleanup(True)
            raise WorkerDied(f"the worker could not start ({exc})") from None
        except BaseException:
            cleanup(True)
            raise
        with self.process.lock:
            if self.closing:  # checked again where close() cannot slip in
                cleanup(True)
                raise WorkerDied("the batch is stopping")
            for attempt in (1, 2):
                ours, theirs = socket.socketpair()
                try:
                    pid = self.process.fork(spec, theirs)
                    break
                except protocol.ProtocolError as exc:
                    ours.close()
                    cleanup(True)
                    raise WorkerDied(f"the worker could not start ({exc})") from None
                except (OSError, ValueError):
                    ours.close()
                    if attempt == 2:
                        cleanup(True)
                        raise WorkerDied("the worker template cannot start workers") from None
                    self.process.restart()  # the template died (killed, out of memory): a new one
                finally:
                    theirs.close()
        conn = WorkerConnection(ours, pid, workdir, cleanup, uid,
                                meters.memory_kills(self.sandbox, name),
                                meters.over_disk(self.sandbox, self.config.limits.disk_mb,
                                                 workdir, uid))
        with self.process.lock:
            stopping = self.closing
            if not stopping:
                self.live.add(conn)
                conn.on_kill = self.live.discard
        if stopping:  # close() killed the others while this one started
            conn.kill()
            raise WorkerDied("the batch is stopping")
        return conn

    def _cgroups(self, name: str) -> list[str]:
        """The worker's cgroup.procs files; a cgroup that cannot be made fails
        this worker alone (its submission is told), never the batch."""
        if not self.sandbox.cgroups:
            return []
        try:
            return self.sandbox.cgroups.make(name, self.config.limits.memory_mb * 2**20,
                                             self.limits.processes + 1)  # + the waiter
        except OSError as exc:
            raise WorkerDied(f"the worker's cgroup could not be made ({exc.strerror})") from None

    def _cleanup(self, uid: int | None, name: str, gone: bool) -> None:
        """After a worker was killed (`gone`: its waiter and worker are dead):
        without a PID namespace, sweep its uid (every process, IPC objects and
        files in the folders open to it); remove its cgroups; give the uid back only if
        nothing of it is left. With a PID namespace, the worker's death (as
        its init) was the death of every process of its uid."""
        clean = gone and (uid is None or self.sandbox.spec.namespaces or self.orders.sweep(uid))
        if self.sandbox.cgroups:
            self.sandbox.cgroups.remove(name)
        if uid is not None:
            self.sandbox.uids.release(uid, clean)

    def close(self) -> None:
        """Kill every worker still running, then the template; a grading thread
        that asks for a worker afterwards is told the batch is stopping."""
        with self.process.lock:
            self.closing = True
        for conn in list(self.live):  # workers a grading thread left behind
            conn.kill()
        self.process.close()
        self.workers_folder.close()
        if self.sandbox.cgroups:
            self.sandbox.cgroups.close()
        if self.sandbox.uids:
            self.sandbox.uids.close()
