"""Starting a batch's workers, and cleaning up after each.

What must stay true: a worker that cannot start (no clean uid, no cgroup, a
spec the kernel refuses, a template that died twice) fails its own
submission, never the batch; once `stop` began, no worker starts, and every
worker still running is killed, even one a grading thread stopped talking to;
a worker's uid goes back to the pool only once nothing of it is left.
"""
from __future__ import annotations

import functools
import itertools
import os
import socket
import tempfile
from pathlib import Path
from typing import Callable

from autograder import protocol
from autograder.engine.config import Config
from autograder.engine.isolation import meters
from autograder.engine.isolation.connection import WorkerConnection, WorkerDied
from autograder.engine.isolation.sandbox import Sandbox
from autograder.engine.isolation.template_process import TemplateProcess
from autograder.engine.isolation.uidpool import UidsUnavailable
from autograder.kernel import allowlist


class Spawner:
    """Forks workers through the template `process`, confined in `sandbox`, each in a
    folder of its own in `folder`; `sweep(uid)` clears what a uid left."""

    def __init__(self, process: TemplateProcess, sandbox: Sandbox, sweep: Callable[[int], bool],
                 hide: list[str], folder: Path):
        self.process = process
        self.sandbox = sandbox
        self.sweep = sweep
        self.hide = hide  # folders whose Python paths workers may not read
        self.folder = folder
        self.names = itertools.count(1)  # the workers' cgroup names
        self.live: set[WorkerConnection] = set()  # killed by stop() if still running
        self.stopping = False  # stop() began: no more workers (an interrupted batch's threads)

    def spawn(self, config: Config, limits: protocol.WorkerLimits) -> WorkerConnection:
        """A new worker, held to `limits` (the kernel's) and `config`'s."""
        if self.stopping:
            raise WorkerDied("the batch is stopping")
        try:
            uid = self.sandbox.uids.acquire() if self.sandbox.uids else None
        except UidsUnavailable as exc:
            raise WorkerDied(f"no uid for the worker ({exc})") from None
        name = f"w{next(self.names)}"
        cleanup = functools.partial(self._cleanup, uid, name)
        workdir, spec = self._spec(config, limits, uid, name, cleanup)
        ours, pid = self._fork(spec, cleanup)
        conn = WorkerConnection(ours, pid, workdir, cleanup, uid,
                                meters.memory_kills(self.sandbox, name),
                                meters.over_disk(self.sandbox, config.limits.disk_mb, workdir, uid))
        with self.process.lock:
            stopping = self.stopping
            if not stopping:
                self.live.add(conn)
                conn.on_kill = self.live.discard
        if stopping:  # stop() killed the others while this one started
            conn.kill()
            raise WorkerDied("the batch is stopping")
        return conn

    def _spec(self, config: Config, limits: protocol.WorkerLimits, uid: int | None, name: str,
              cleanup: Callable[[bool], None]) -> tuple[Path, bytes]:
        """The worker's folder and its encoded WorkerSpec; on failure, `cleanup`
        undoes what was made."""
        try:
            workdir = Path(tempfile.mkdtemp(prefix="w", dir=self.folder))
            if uid is not None:
                os.chown(workdir, uid, uid)
            procs = self._cgroups(name, config.limits.memory_mb, limits.processes)
            return workdir, protocol.encode_order(protocol.WorkerSpec(
                sandbox=self.sandbox.mode, uid=uid, workdir=str(workdir),
                read=tuple(allowlist.python_paths(self.hide, self.process.python)),
                cgroups=tuple(procs), seed=config.seed, limits=limits,
                forbid=tuple(config.forbid), shared=self.sandbox.shared))
        except protocol.ProtocolError as exc:  # a limit of a type the kernel cannot take
            cleanup(True)
            raise WorkerDied(f"the worker could not start ({exc})") from None
        except BaseException:
            cleanup(True)
            raise

    def _fork(self, spec: bytes, cleanup: Callable[[bool], None]) -> tuple[socket.socket, int]:
        """Our end of the new worker's socket, and its pid; a template that died
        is started again once. On failure, `cleanup` undoes what was made."""
        with self.process.lock:
            if self.stopping:  # checked again where stop() cannot slip in
                cleanup(True)
                raise WorkerDied("the batch is stopping")
            try:
                return self.process.start_child(spec)
            except protocol.ProtocolError as exc:
                cleanup(True)
                raise WorkerDied(f"the worker could not start ({exc})") from None
            except (OSError, ValueError):
                cleanup(True)
                raise WorkerDied("the worker template cannot start workers") from None

    def stop(self) -> None:
        """Start no worker from now on, and kill those still running."""
        with self.process.lock:
            self.stopping = True
        for conn in list(self.live):  # workers a grading thread left behind
            conn.kill()

    def _cgroups(self, name: str, memory_mb: int, processes: int) -> list[str]:
        """The worker's cgroup.procs files; a cgroup that cannot be made fails
        this worker alone (its submission is told), never the batch."""
        if not self.sandbox.cgroups:
            return []
        try:
            return self.sandbox.cgroups.make(name, memory_mb * 2**20, processes + 1)  # + the waiter
        except OSError as exc:
            raise WorkerDied(f"the worker's cgroup could not be made ({exc.strerror})") from None

    def _cleanup(self, uid: int | None, name: str, gone: bool) -> None:
        """After a worker was killed (`gone`: its waiter and worker are dead):
        without a PID namespace, sweep its uid (every process, IPC objects and
        files in the folders open to it); remove its cgroups; give the uid back only if
        nothing of it is left. With a PID namespace, the worker's death (as
        its init) was the death of every process of its uid."""
        clean = gone and (uid is None or self.sandbox.spec.namespaces or self.sweep(uid))
        if self.sandbox.cgroups:
            self.sandbox.cgroups.remove(name)
        if uid is not None:
            self.sandbox.uids.release(uid, clean)
