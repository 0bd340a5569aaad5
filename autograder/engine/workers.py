"""Starting, talking to and killing untrusted workers.

One template process per batch (started with a scrubbed environment and no
inherited descriptors but its control socket) forks a worker per request.
A WorkerConnection is the grader's end of one worker: requests with a
wall-clock deadline, and a kill that takes the worker's whole process group
and PID namespace with it.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from autograder import paths, protocol
from autograder.engine.config import Config

_uid_counter = iter(range(1, 10**9))


class WorkerDied(Exception):
    """The worker exited or was killed before answering."""


class WorkerTimeout(Exception):
    """The worker did not answer within its wall-clock limit (it has been killed)."""


def running_as_root() -> bool:
    return os.geteuid() == 0


class Template:
    """The forking template for one assignment's batch."""

    def __init__(self, config: Config, hide: list[Path]):
        self.config = config
        self.hide = [str(p) for p in hide if p.exists()]
        self.as_root = running_as_root()
        self.lock = threading.Lock()
        self.scratch = Path(tempfile.mkdtemp(prefix="autograder-workers-"))
        self.scratch.chmod(0o711)  # workers may pass through to their own folder, not list it
        self.uid_base = 200_000 + (os.getpid() % 10_000) * 1_000
        self._start()

    def _start(self) -> None:
        ours, theirs = socket.socketpair()
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
               "PYTHONPATH": str(paths.ROOT), "OMP_NUM_THREADS": "1",
               "PYTHONDONTWRITEBYTECODE": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "autograder.worker", str(theirs.fileno()),
             ",".join(m for m in self.config.preload if m not in self.config.forbid)],
            pass_fds=[theirs.fileno()], env=env, cwd=str(self.scratch),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)
        theirs.close()
        self.control = ours

    def spawn(self) -> "WorkerConnection":
        uid = self.uid_base + next(_uid_counter) % 1_000
        workdir = Path(tempfile.mkdtemp(prefix="w", dir=self.scratch))
        if not self.as_root:
            workdir.chmod(0o700)
        limits = dict(vars(self.config.limits), own_uid=self.as_root)
        spec = json.dumps({"as_root": self.as_root, "uid": uid, "workdir": str(workdir),
                           "hide": self.hide, "limits": limits, "seed": self.config.seed,
                           "forbid": list(self.config.forbid)}).encode()
        with self.lock:
            for attempt in (1, 2):
                ours, theirs = socket.socketpair()
                try:
                    pid = self._fork(spec, theirs)
                    break
                except (OSError, ValueError):
                    ours.close()
                    if attempt == 2:
                        raise WorkerDied("the worker template cannot start workers") from None
                    self._restart()  # the template died (killed, out of memory): a new one
                finally:
                    theirs.close()
        return WorkerConnection(ours, pid, workdir)

    def _fork(self, spec: bytes, theirs: socket.socket) -> int:
        socket.send_fds(self.control, [spec], [theirs.fileno()])
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = self.control.recv(64)
            if not chunk:
                raise OSError("the worker template exited")
            reply += chunk
        return int(reply)

    def _restart(self) -> None:
        self.control.close()
        self.proc.kill()
        self.proc.wait()
        self._start()

    def close(self) -> None:
        self.control.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        _remove_tree(self.scratch)


class WorkerConnection:
    """The grader's end of one worker."""

    def __init__(self, sock: socket.socket, group: int, workdir: Path):
        self.sock = sock
        self.group = group
        self.workdir = workdir
        self.pid = None
        self.dead = False
        try:
            self.sock.settimeout(30)
            header, _ = protocol.recv_frame(self.sock)
            self.pid = int(header["worker_pid"])
        except (EOFError, OSError, protocol.ProtocolError, KeyError, TypeError, ValueError):
            self.kill()
            raise WorkerDied("the worker could not start") from None

    def request(self, header: dict, buffers=(), timeout: float = 10.0):
        """Send one request; return (reply header, buffers) or raise.
        The timeout bounds the whole exchange, not each read: a worker that
        trickles a byte at a time is stopped all the same."""
        if self.dead:
            raise WorkerDied("the worker is no longer running")
        try:
            channel = _Deadline(self.sock, time.monotonic() + timeout)
            protocol.send_frame(channel, dict(header, nbuf=len(buffers)), buffers)
            return protocol.recv_frame(channel)
        except (socket.timeout, TimeoutError):
            self.kill()
            raise WorkerTimeout(f"no answer within {timeout:g} s") from None
        except (EOFError, OSError, protocol.ProtocolError) as exc:
            self.kill()
            raise WorkerDied(f"the worker stopped ({type(exc).__name__})") from None

    def kill(self) -> None:
        """Kill the worker and everything it started; wait until they are gone."""
        self.dead = True
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
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(
                _alive(p) for p in (self.group, self.pid) if p):
            time.sleep(0.002)
        _remove_tree(self.workdir)


class _Deadline:
    """A socket whose reads and writes share one wall-clock deadline."""

    def __init__(self, sock: socket.socket, deadline: float):
        self.sock, self.deadline = sock, deadline

    def _arm(self) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        self.sock.settimeout(left)

    def recv(self, n: int) -> bytes:
        self._arm()
        return self.sock.recv(n)

    def sendall(self, data: bytes) -> None:
        self._arm()
        self.sock.sendall(data)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie still answers kill(0); it has released everything we care about
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _remove_tree(path: Path) -> None:
    import shutil
    shutil.rmtree(path, ignore_errors=True)
