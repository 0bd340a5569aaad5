"""Starting, talking to and killing untrusted workers.

One template process per batch (started with a scrubbed environment and no
inherited descriptors but its control socket) forks a worker per request.
A WorkerConnection is the grader's end of one worker: requests with a
wall-clock deadline and bounded replies (the first malformed, oversized or
undecodable frame kills the worker), and a kill that takes the worker's whole
process group and PID namespace with it. When the batch ends, the template
kills every worker still running, even one the grader stopped talking to.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from autograder import paths, protocol
from autograder.engine.callbacks import Callbacks
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
        # "namespaces" (root: the full sandbox), "uid" (root where namespaces are
        # refused, as in some containers), "none" (not root): see docs/security.md
        self.sandbox = "namespaces" if running_as_root() else "none"
        self.verified = False  # a worker has started in this sandbox mode
        self.lock = threading.Lock()
        self.live: set[WorkerConnection] = set()  # killed by close() if still running
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
        try:
            conn = self._spawn()
        except WorkerDied:
            if self.sandbox != "namespaces" or self.verified:
                raise
            self.sandbox = "uid"
            print("warning: this machine refuses the worker's namespaces; grading with a "
                  "separate uid and resource limits only (secrets are then protected by "
                  "file permissions alone, see docs/security.md)", file=sys.stderr)
            conn = self._spawn()
        self.verified = True
        self.live.add(conn)
        conn.on_kill = self.live.discard
        return conn

    def _spawn(self) -> "WorkerConnection":
        uid = self.uid_base + next(_uid_counter) % 1_000
        workdir = Path(tempfile.mkdtemp(prefix="w", dir=self.scratch))
        if self.sandbox == "uid":
            os.chown(workdir, uid, uid)
        limits = dict(vars(self.config.limits), own_uid=self.sandbox != "none")
        spec = json.dumps({"sandbox": self.sandbox, "uid": uid, "workdir": str(workdir),
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
        return WorkerConnection(ours, pid, workdir, uid if self.sandbox == "uid" else None)

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
        for conn in list(self.live):  # workers a grading thread left behind
            conn.kill()
        self.control.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        _remove_tree(self.scratch)


class WorkerConnection:
    """The grader's end of one worker."""

    def __init__(self, sock: socket.socket, group: int, workdir: Path, sweep_uid: int | None = None):
        self.sock = sock
        self.sweep_uid = sweep_uid  # without a PID namespace, strays are found by their uid
        self.group = group
        self.workdir = workdir
        self.pid = None
        self.dead = False
        self.on_kill = None  # set by the Template that tracks this worker
        try:
            self.sock.settimeout(30)
            header, _ = protocol.recv_frame(self.sock, max_header=4096, max_buffers=0)
            self.pid = int(header["worker_pid"])
        except (EOFError, OSError, protocol.ProtocolError, KeyError, TypeError, ValueError):
            self.kill()
            raise WorkerDied("the worker could not start") from None

    def request(self, header: dict, buffers=(), timeout: float = 10.0,
                max_reply: int = protocol.MAX_BUFFERS, callbacks: Callbacks | None = None):
        """Send one request; return (reply header, buffers) or raise.
        The timeout bounds the whole exchange, not each read: a worker that
        trickles a byte at a time is stopped all the same. The reply's buffers
        may hold max_reply bytes; callback frames that come first are answered
        from `callbacks` (none: refused). A frame beyond its limits or malformed
        kills the worker (WorkerDied)."""
        if self.dead:
            raise WorkerDied("the worker is no longer running")
        callbacks = Callbacks() if callbacks is None else callbacks
        limit = lambda h: callbacks.arg_limit(h) if "callback" in h else max_reply
        try:
            channel = _Deadline(self.sock, time.monotonic() + timeout)
            protocol.send_frame(channel, header, buffers)
            while True:
                reply, reply_buffers = protocol.recv_frame(channel, max_buffers=limit)
                if "callback" not in reply:
                    return reply, reply_buffers
                protocol.send_frame(channel, *callbacks.answer(reply, reply_buffers))
        except (socket.timeout, TimeoutError):
            self.kill()
            raise WorkerTimeout(f"no answer within {timeout:g} s") from None
        except (EOFError, OSError, protocol.ProtocolError) as exc:
            self.kill()
            raise WorkerDied(f"the worker stopped ({type(exc).__name__})") from None
        except BaseException:  # a grader bug mid-exchange: the channel is out of step
            self.kill()
            raise

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
        if self.sweep_uid is not None:
            _kill_all_of(self.sweep_uid)
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


def _kill_all_of(uid: int) -> None:
    """kill(-1) as `uid`: every process that uid still has (without a PID
    namespace, this is how processes a worker detached are found)."""
    pid = os.fork()
    if pid == 0:  # only system calls here: safe in a child of a threaded process
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


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
    shutil.rmtree(path, ignore_errors=True)
