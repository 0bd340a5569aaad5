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

import contextlib
import dataclasses
import functools
import itertools
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
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Callable

from autograder import paths, protocol
from autograder.engine.isolation import cgroups, memory_budget, scratch, uidpool
from autograder.engine.intake import untrusted
from autograder.engine.isolation import sandbox as sandbox_mod
from autograder.engine.isolation.callbacks import Callbacks
from autograder.engine.config import Config
from autograder.engine.isolation.processes import alive
from autograder.engine.isolation.uidpool import UidPool, UidsUnavailable
from autograder.kernel import allowlist, disk, landlock, writable
from autograder.kernel.sweep import SECONDS as SWEEP_SECONDS

PROBE_CELL = ("import os, sysconfig\n"
              "for key in ('stdlib', 'platstdlib', 'purelib', 'platlib'):\n"
              "    os.listdir(sysconfig.get_paths()[key])\n")


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
        self.lock = threading.Lock()
        self.live: set[WorkerConnection] = set()  # killed by close() if still running
        self.closing = False  # close() began: no more workers (an interrupted batch's threads)
        self.closed = False  # the control socket is closed: no template is started again
        scratch.remove_stale()  # graders that died left them: uid mode would sweep them all
        self.workers_folder = scratch.Scratch()
        self.scratch = self.workers_folder.path
        self.names = itertools.count(1)  # the workers' cgroup names
        tag = cgroups.batch_tag(self.scratch.name.rsplit('-', 1)[-1])
        self.sandbox = sandbox_mod.Sandbox(  # cgroups first: v2 may move this process
            "none", None, cgroups.create(tag) if use_cgroups else None, landlock.abi_version())
        self._start()
        if running_as_root():
            self.sandbox.uids = UidPool(self._sweep, uid_pool_size)
        try:
            mode = sandbox_mod.choose(self._probe, allow_unsafe,
                                      sandbox_mod.Needs(self.hide, self._audit, self._scan,
                                                        self.sandbox))
        except sandbox_mod.SandboxUnavailable:
            self.close()
            raise
        self._fit_memory(workers_at_once)
        self._use(mode)

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
        self.python = self._where_python_lives()

    def _where_python_lives(self) -> list[str]:
        """The template's first line, once its imports are done: its Python paths
        (of which workers may read those holding no secret); [] if it died first
        (its first fork then fails and says so)."""
        line = b""
        self.control.settimeout(300)
        try:
            while not line.endswith(b"\n") and len(line) < 1 << 20:
                chunk = self.control.recv(1 << 16)
                if not chunk:
                    return []
                line += chunk
            return [str(p) for p in json.loads(line)["python"]]
        except (OSError, ValueError, KeyError, TypeError):
            return []
        finally:
            self.control.settimeout(None)

    def _probe(self, mode: str) -> str | None:
        """Start a worker in `mode`, have it import from Python's own folders,
        stop it: None if it worked, else why not."""
        self._use(mode)
        try:
            conn = self.spawn()
        except WorkerDied as exc:
            return str(exc)
        try:
            reply, buffers = conn.request({"op": protocol.RUN_CELL, "index": 0,
                                           "source": PROBE_CELL},
                                          timeout=30, max_reply=0)
            report = protocol.unpack(reply.get("ok"), buffers, lambda handle: None)
            error = report.get("error") if isinstance(report, dict) else {"type": "no report"}
            return None if error is None else ("a worker cannot read Python's own folders "
                                               f"({error.get('type')}: {error.get('message')})")
        except (WorkerDied, WorkerTimeout, protocol.ProtocolError) as exc:
            return str(exc)
        finally:
            conn.kill()

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
                read=tuple(allowlist.python_paths(self.hide, self.python)),
                cgroups=tuple(procs), seed=self.config.seed, limits=self.limits,
                forbid=tuple(self.config.forbid), shared=self.sandbox.shared))
        except protocol.ProtocolError as exc:  # a limit of a type the kernel cannot take
            cleanup(True)
            raise WorkerDied(f"the worker could not start ({exc})") from None
        except BaseException:
            cleanup(True)
            raise
        with self.lock:
            if self.closing:  # checked again where close() cannot slip in
                cleanup(True)
                raise WorkerDied("the batch is stopping")
            for attempt in (1, 2):
                ours, theirs = socket.socketpair()
                try:
                    pid = self._fork(spec, theirs)
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
                    self._restart()  # the template died (killed, out of memory): a new one
                finally:
                    theirs.close()
        conn = WorkerConnection(ours, pid, workdir, cleanup, uid, self._memory_kills(name),
                                self._over_disk(workdir, uid))
        with self.lock:
            stopping = self.closing
            if not stopping:
                self.live.add(conn)
                conn.on_kill = self.live.discard
        if stopping:  # close() killed the others while this one started
            conn.kill()
            raise WorkerDied("the batch is stopping")
        return conn

    def _memory_kills(self, name: str) -> Callable[[], int | None]:
        """Where the kernel counts this worker's OOM kills: its own memory cgroup,
        or without one the whole tree's (a container's limit)."""
        if self.sandbox.cgroups:
            return functools.partial(self.sandbox.cgroups.oom_kills, name)
        return cgroups.tree_oom_kills

    def _over_disk(self, workdir: Path, uid: int | None) -> Callable[[], bool]:
        """Whether this worker's files are past disk_mb, where its waiter meters
        them (kernel/disk.py; elsewhere a tmpfs of disk_mb holds them)."""
        if not self.sandbox.spec.meters_disk:
            return lambda: False
        limit = self.config.limits.disk_mb * 2**20
        folders = disk.folders(str(workdir), self.sandbox.shared)
        return lambda: disk.over(folders, uid, limit)

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
        clean = gone and (uid is None or self.sandbox.spec.namespaces or self._sweep(uid))
        if self.sandbox.cgroups:
            self.sandbox.cgroups.remove(name)
        if uid is not None:
            self.sandbox.uids.release(uid, clean)

    def _sweep(self, uid: int) -> bool:
        """Have the template fork a child that, as `uid`, kills all its
        processes (and, without namespaces, removes its IPC objects and its files
        in the machine's folders open to it); True if nothing of it is left."""
        order = protocol.SweepOrder(uid=uid, shared=not self.sandbox.spec.namespaces,
                                    folders=self.sandbox.shared)
        return self._order(order, SWEEP_SECONDS + 10, 1) == b"1"

    def _audit(self, secret: list[str], read_only: list[str]) -> str | None:
        """As a worker's uid (from the pool): the first secret path it could
        read or write, or Python path it could write, by file permissions
        (worker/permissions.py), as a sentence; an audit that gives no answer
        counts as open."""
        uid = self.sandbox.uids.acquire()
        try:  # the paths go to the auditing child alone, never through the template
            reply = self._order(protocol.AuditOrder(uid=uid), 60, 1 << 16, json.dumps(
                {"secret": secret, "read_only": read_only}).encode())
        finally:
            self.sandbox.uids.release(uid, True)  # it ran no process of its own
        try:
            found = json.loads(reply)["open"]
            return None if found is None else f"{untrusted.name(found, 500)} by the workers' uids"
        except (ValueError, KeyError, TypeError):
            return "file permissions could not be checked as a worker's uid"

    def _scan(self) -> dict:
        """As a worker's uid (from the pool): every place on the machine it
        could write, and every folder a uid of the pool owns (kernel/writable.py),
        {"folders": [...], "files": [...]}, or {"error": why}."""
        uid = self.sandbox.uids.acquire()
        try:
            pool = self.sandbox.uids.base, self.sandbox.uids.base + uidpool.SPAN
            reply = self._order(protocol.ScanOrder(uid=uid, owners=pool), writable.SECONDS + 10,
                                1 << 20)
        finally:
            self.sandbox.uids.release(uid, True)  # it ran no process of its own
        try:  # the paths are the machine's, exact (the sweep clears them), named only once cleaned
            found = json.loads(reply)
            if "error" in found:
                return {"error": untrusted.name(found["error"], 500)}
            places = {kind: list(found[kind]) for kind in ("folders", "files")}
            if all(type(p) is str and 0 < len(p) <= 4096 for p in sum(places.values(), [])):
                return places
        except (ValueError, KeyError, TypeError):
            pass
        return {"error": "the places open to a worker's uid could not be found"}

    def _order(self, order: protocol.Order, timeout: float,
               size: int, data: bytes = b"") -> bytes:
        """Have the template fork a child for `order` (a sweep, an audit, a scan), hand
        the child `data` on its own socket (then the end of writing), and
        return its answer, at most `size` bytes (b"" when there is none in time,
        or the template refused the order).
        The grader never forks for this: a fork while another thread is in a
        BLAS call can hang it."""
        ours, theirs = socket.socketpair()
        try:
            encoded = protocol.encode_order(order)
            with self.lock:
                if self.closed:  # never a new template for a closed batch
                    theirs.close()
                    return b""
                try:
                    self._fork(encoded, theirs)
                except (OSError, ValueError):  # the template died (out of memory, killed)
                    self._restart()
                    self._fork(encoded, theirs)
                finally:
                    theirs.close()
            ours.settimeout(timeout)
            if data:
                ours.sendall(data)
                ours.shutdown(socket.SHUT_WR)
            answer = b""  # the child answers, then exits: read to its end, bounded
            while len(answer) < size:
                chunk = ours.recv(size - len(answer))
                if not chunk:
                    break
                answer += chunk
            return answer
        except (OSError, ValueError, protocol.ProtocolError):
            return b""
        finally:
            ours.close()

    def _fork(self, order: bytes, theirs: socket.socket) -> int:
        """The pid of the child the template forked for `order` (encode_order's);
        ProtocolError when it refused the order, OSError or ValueError when it
        is gone or answers nonsense."""
        socket.send_fds(self.control, [order], [theirs.fileno()])
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = self.control.recv(64)
            if not chunk:
                raise OSError("the worker template exited")
            reply += chunk
            if len(reply) > 4096:
                raise ValueError("the worker template's answer has no end")
        if reply.startswith(b"refused "):
            why = untrusted.name(reply[len(b"refused "):].decode(errors="replace").strip(), 300)
            raise protocol.ProtocolError(f"the worker template refused its order: {why}")
        return int(reply)

    def _restart(self) -> None:
        self.control.close()
        self.proc.kill()
        self.proc.wait()
        self._start()

    def close(self) -> None:
        """Kill every worker still running, then the template; a grading thread
        that asks for a worker afterwards is told the batch is stopping."""
        with self.lock:
            self.closing = True
        for conn in list(self.live):  # workers a grading thread left behind
            conn.kill()
        with self.lock:
            self.control.close()
            self.closed = True
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.workers_folder.close()
        if self.sandbox.cgroups:
            self.sandbox.cgroups.close()
        if self.sandbox.uids:
            self.sandbox.uids.close()


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

    def sendall(self, data: bytes) -> None:
        self._arm()
        self.sock.sendall(data)
