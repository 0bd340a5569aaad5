"""Starting and killing untrusted workers: the Template, one per batch.

It chooses the batch's sandbox once, before any submission is graded, and
when the batch ends stops everything of it, even a worker the grader stopped
talking to. Each of its other jobs is a module of its own beside it.
"""
from __future__ import annotations

import dataclasses
import os
import subprocess
from pathlib import Path

from autograder import paths
from autograder.engine.config import Config
from autograder.engine.isolation import cgroups, memory_budget, probe, scratch, template_factory
from autograder.engine.isolation import sandbox as sandbox_mod
from autograder.engine.isolation.connection import WorkerConnection, WorkerDied, WorkerTimeout
from autograder.engine.isolation.orders import Orders
from autograder.engine.isolation.spawner import Spawner
from autograder.engine.isolation.template_process import TemplateProcess
from autograder.engine.isolation.uidpool import UidPool
from autograder.kernel import landlock

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
        scratch.remove_stale()  # graders that died left them: uid mode would sweep them all
        self.workers_folder = scratch.Scratch()
        self.scratch = self.workers_folder.path
        tag = cgroups.batch_tag(self.scratch.name.rsplit('-', 1)[-1])
        self.sandbox = sandbox_mod.Sandbox(  # cgroups first: v2 may move this process
            "none", None, cgroups.create(tag, companions=template_factory.pids()) if use_cgroups
            else None, landlock.abi_version())
        self.process = TemplateProcess(config, self.scratch)
        self.orders = Orders(self.process, self.sandbox)
        self.spawner = Spawner(self.process, self.sandbox, self.orders.sweep, self.hide,
                               self.scratch)
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

    def spawn(self) -> WorkerConnection:
        """A worker for one submission, in the batch's sandbox and limits."""
        return self.spawner.spawn(self.config, self.limits)

    def close(self) -> None:
        """Kill every worker still running, then the template; a grading thread
        that asks for a worker afterwards is told the batch is stopping."""
        self.spawner.stop()
        self.process.close()
        self.workers_folder.close()
        if self.sandbox.cgroups:
            self.sandbox.cgroups.close()
        if self.sandbox.uids:
            self.sandbox.uids.close()
