"""Template factories: one process per set of preloaded modules, for the life
of the grader, that imports them once and forks a fresh template for every
batch (worker/template.py's run_factory).

A new template used to be a new interpreter importing numpy and torch: about
1.6 s of CPU per batch, and again whenever a template died. A grader that runs
many batches (a Dask host, a test session) or restarts a template now pays
that once. Each batch still gets a template of its own, which ends with the
batch; the factory is started as a template was (scrubbed environment, no
descriptor but its socket, before it is sent anything) and is sent nothing
but the batch's scratch folder, so it holds no more than a template does.
"""
from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import threading

from autograder import paths, protocol

START_SECONDS = 300
"""The longest a factory may take to answer (its first answer waits for its imports)."""
_factories: dict[str, "TemplateFactory"] = {}
_lock = threading.Lock()


def environment() -> dict[str, str]:
    """The whole environment of a factory, and so of every template and worker."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
            "PYTHONPATH": str(paths.ROOT), "OMP_NUM_THREADS": "1",
            "PYTHONDONTWRITEBYTECODE": "1"}


def fork_template(preload: str, folder: str, theirs: socket.socket) -> "ForkedProcess":
    """A new template, its modules `preload` imported, working in `folder`, its
    control socket `theirs`: forked by this grader's factory for `preload`
    (started now if it is not running, or again once if it died); ProtocolError
    when it refuses the folder (not an absolute path to a folder)."""
    with _lock:
        factory = _factories.get(preload)
        if factory is not None and not factory.alive():
            factory.kill()  # its socket closed, its exit reaped
            factory = None
        if factory is None:
            factory = _factories[preload] = TemplateFactory(preload)
        try:
            return factory.fork(folder, theirs)
        except (OSError, ValueError):  # it died (killed, out of memory): a new one
            factory.kill()
            factory = _factories[preload] = TemplateFactory(preload)
            return factory.fork(folder, theirs)


def pids() -> list[int]:
    """The factories running now (their cgroup is the grader's: engine/isolation/cgroups.py)."""
    with _lock:
        return [f.proc.pid for f in _factories.values() if f.alive()]


class TemplateFactory:
    def __init__(self, preload: str):
        ours, theirs = socket.socketpair()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "autograder.worker", "factory", str(theirs.fileno()),
             preload], pass_fds=[theirs.fileno()], env=environment(), cwd="/",
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)
        theirs.close()
        self.control = ours
        self.control.settimeout(START_SECONDS)  # a factory that never answers is a dead one

    def alive(self) -> bool:
        return self.proc.poll() is None

    def fork(self, folder: str, theirs: socket.socket) -> "ForkedProcess":
        reply = protocol.send_order(self.control, folder.encode(), theirs.fileno(),
                                    "template factory", limit=64)
        if reply == b"refused\n":
            raise protocol.ProtocolError(f"the template factory refused the folder {folder!r}")
        return ForkedProcess(int(reply))

    def kill(self) -> None:
        self.control.close()
        self.proc.kill()
        self.proc.wait()


class ForkedProcess:
    """A template the factory forked: not this process's child, so watched
    through a pidfd, with the part of subprocess.Popen's interface the
    engine uses (its exit status is the factory's to reap: -1 once it ended)."""

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode: int | None = None
        try:
            self._fd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # ended already
            self._fd, self.returncode = None, -1

    def poll(self) -> int | None:
        if self._fd is not None and self._ready(0):
            self._ended()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self._fd is not None:
            if not self._ready(timeout):
                raise subprocess.TimeoutExpired(f"template {self.pid}", timeout or 0)
            self._ended()
        return self.returncode

    def _ready(self, timeout: float | None) -> bool:
        """The pidfd is readable: the process ended (within `timeout` seconds)."""
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        return bool(poller.poll(None if timeout is None else timeout * 1000))

    def kill(self) -> None:
        if self._fd is not None:
            try:
                signal.pidfd_send_signal(self._fd, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _ended(self) -> None:
        os.close(self._fd)
        self._fd, self.returncode = None, -1

    def __del__(self):
        if self._fd is not None:
            os.close(self._fd)
