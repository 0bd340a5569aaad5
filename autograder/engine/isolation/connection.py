"""The grader's end of one worker: requests under one wall-clock deadline,
bounded replies, and a kill that takes the worker's whole process group.

Every frame that comes back is hostile: the first malformed, oversized or
undecodable one kills the worker, so a broken exchange never leaves a worker
running out of step with the grader.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Callable

from autograder import protocol
from autograder.engine.intake import untrusted
from autograder.engine.isolation.callbacks import Callbacks
from autograder.engine.isolation.processes import alive

OUT_OF_MEMORY = (": its processes used more memory than the submission may (memory_mb, or "
                 "all the machine or container has), and the kernel stopped them")
"""Said after how a worker ended, where the kernel killed for memory meanwhile."""
OUT_OF_DISK = (": its files took more disk than a submission may (disk_mb, for all of its "
               "files), and it was stopped")
"""Said after how a worker ended, where its files had passed disk_mb (kernel/disk.py)."""


class WorkerDied(Exception):
    """The worker exited or was killed before answering."""


class WorkerTimeout(Exception):
    """The worker did not answer within its wall-clock limit (it has been killed)."""


class _StartFailed(Exception):
    """The worker reported why it could not confine itself."""


@dataclass
class Traffic:
    """What the grader spent talking to one worker (for `bench --profile`)."""
    requests: int = 0
    callbacks: int = 0
    """Callback frames answered (functions the grader lent)."""
    seconds: float = 0.0
    """Wall time inside request(), callbacks included."""
    callback_seconds: float = 0.0
    """Of which: answering callbacks (the grader's own computing)."""

    def since(self, before: "Traffic") -> "Traffic":
        return Traffic(*(getattr(self, f.name) - getattr(before, f.name)
                         for f in fields(Traffic)))


class WorkerConnection:
    """The grader's end of one worker."""

    def __init__(self, sock: socket.socket, group: int, workdir: Path,
                 cleanup: Callable[[bool], None] = lambda gone: None, uid: int | None = None,
                 memory_kills: Callable[[], int | None] = lambda: None,
                 over_disk: Callable[[], bool] = lambda: False):
        self.memory_kills = memory_kills  # the kernel's OOM kills where this worker is counted
        self.kills_before = memory_kills()
        self.over_disk = over_disk
        self.out_of_memory = False
        """Set when the worker died and the kernel had killed for memory meanwhile."""
        self.out_of_disk = False
        """Set when the worker died with its files past disk_mb (its waiter stopped it)."""
        self.sock = sock
        self.channel = _Deadline(sock)  # every exchange's reads and writes, after the handshake
        self.cleanup = cleanup  # the template's sweep of the worker's uid and cgroups
        self.uid = uid  # its own uid, if it has one
        self.group = group
        self.workdir = workdir
        self.pid = None
        self.dead = False
        self.on_kill = None  # set by the Template that tracks this worker
        self.traffic = Traffic()
        self.memo: dict = {}  # the student's answers several tests read (Student.shared)
        try:
            self.sock.settimeout(30)
            self._handshake()
        except _StartFailed as exc:
            self.kill()
            raise WorkerDied(f"the worker could not start ({exc})") from None
        except (EOFError, OSError, protocol.ProtocolError, KeyError, TypeError, ValueError):
            self.kill()
            raise WorkerDied("the worker could not start") from None

    def _handshake(self) -> None:
        """{"worker_pid": n}, then {"ready": 1} once it is confined; a
        {"failed": reason} instead comes before any student code ran."""
        for expected in ("worker_pid", "ready"):
            header, _ = protocol.recv_frame(self.sock, max_header=4096, max_buffers=0)
            if "failed" in header:
                raise _StartFailed(untrusted.name(header["failed"], 300))
            if expected == "worker_pid":
                self.pid = int(header["worker_pid"])
            elif header.get("ready") != 1:
                raise ValueError("unexpected start frame")

    def request(self, header: dict, buffers=(), timeout: float = 10.0,
                max_reply: int = protocol.MAX_BUFFERS, callbacks: Callbacks | None = None):
        """Send one request; return (reply header, buffers) or raise.
        The timeout bounds the whole exchange, not each read: a worker that
        trickles a byte at a time is stopped all the same. The reply's buffers
        may hold max_reply bytes; callback frames that come first are answered
        from `callbacks` (none: refused). A frame beyond its limits or malformed
        kills the worker (WorkerDied)."""
        callbacks = Callbacks() if callbacks is None else callbacks
        limit = lambda h: callbacks.arg_limit(h) if "callback" in h else max_reply
        start = time.perf_counter()
        try:
            with self.exchange(timeout) as channel:
                self.traffic.requests += 1
                protocol.send_frame(channel, header, buffers)
                while True:
                    reply, reply_buffers = protocol.recv_frame(channel, max_buffers=limit)
                    if "callback" not in reply:
                        return reply, reply_buffers
                    asked = time.perf_counter()
                    answer = callbacks.answer(reply, reply_buffers)
                    self.traffic.callbacks += 1
                    self.traffic.callback_seconds += time.perf_counter() - asked
                    protocol.send_frame(channel, *answer)
        finally:
            self.traffic.seconds += time.perf_counter() - start

    @contextlib.contextmanager
    def exchange(self, timeout: float):
        """A channel to the worker whose reads and writes share one deadline,
        `timeout` from now. Whatever goes wrong on it kills the worker: a late
        answer raises WorkerTimeout, a closed channel or a frame beyond its
        limits WorkerDied, anything else (a grader bug, a caller that stops
        mid-exchange) leaves the channel out of step and is raised as is."""
        if self.dead:
            raise WorkerDied("the worker is no longer running")
        try:
            self.channel.deadline = time.monotonic() + timeout
            yield self.channel
        except (socket.timeout, TimeoutError):
            self.kill()
            raise WorkerTimeout(f"no answer within {timeout:g} s") from None
        except (EOFError, OSError, protocol.ProtocolError) as exc:
            kills = self.memory_kills()  # before the kill removes the worker's cgroup
            self.out_of_memory = None not in (kills, self.kills_before) and kills > self.kills_before
            self.out_of_disk = self.over_disk()  # before the kill removes its files
            self.kill()
            raise WorkerDied("the worker stopped" + (self.why_stopped()
                                                     or f" ({type(exc).__name__})")) from None
        except BaseException:
            self.kill()
            raise

    def why_stopped(self) -> str:
        """What stopped the worker, when a limit did (OUT_OF_MEMORY, OUT_OF_DISK), else ""."""
        return OUT_OF_MEMORY if self.out_of_memory else OUT_OF_DISK if self.out_of_disk else ""

    def kill(self) -> None:
        """Kill the worker and everything it started; wait until they are gone.
        Once only: its pids may belong to other processes afterwards."""
        if self.dead:
            return
        self.dead = True
        if self.on_kill is not None:
            self.on_kill(self)
        try:
            self.sock.close()
        except OSError:
            pass
        for target, killer in ((self.group, os.killpg), (self.pid, os.kill)):
            if target:
                try:
                    killer(target, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        targets = [p for p in (self.group, self.pid) if p]
        deadline = time.monotonic() + 5
        while (left := [p for p in targets if alive(p)]) and time.monotonic() < deadline:
            time.sleep(0.002)
        cleanup, self.cleanup = self.cleanup, lambda gone: None
        cleanup(not left)
        shutil.rmtree(self.workdir, ignore_errors=True)


class _Deadline(protocol.Buffered):
    """The socket, read ahead (protocol.Buffered), whose reads and writes share one
    wall-clock deadline, set by each exchange."""

    def __init__(self, sock: socket.socket):
        super().__init__(sock)
        self.deadline = 0.0

    def _arm(self) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        self.sock.settimeout(left)

    def _read(self, n: int) -> bytes:
        self._arm()
        return self.sock.recv(n)

    def _read_into(self, view: memoryview) -> int:
        self._arm()
        return self.sock.recv_into(view)

    def sendall(self, data: bytes) -> None:
        self._arm()
        self.sock.sendall(data)
