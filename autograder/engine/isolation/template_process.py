"""The template process (worker/template.py) and the control socket to it.

The grader never forks itself: a fork while another thread is in a BLAS
call can hang the child. It asks this process instead, one order at a time
on the control socket, for every worker and every order's child. The
process is forked for the batch by the grader's template factory
(template_factory.py), itself started with a scrubbed environment and no
inherited descriptor but its socket; when the template dies (killed, out of
memory) a new one takes its place, unless the batch is closing.
"""
from __future__ import annotations

import json
import socket
import subprocess
import threading
from pathlib import Path

from autograder import protocol
from autograder.engine.config import Config
from autograder.engine.intake import untrusted
from autograder.engine.isolation import template_factory


class TemplateProcess:
    """The running template; `lock` is held by whoever forks through it (one
    order at a time on the socket) or decides it may."""

    def __init__(self, config: Config, folder: Path):
        # the modules it imports before forking, so that every worker starts with them
        self.preload = ",".join(m for m in config.preload if m not in config.forbid)
        self.folder = folder  # its working folder: the batch's scratch folder
        self.lock = threading.Lock()
        self.closed = False  # the control socket is closed: no template is started again
        self._start()

    def _start(self) -> None:
        ours, theirs = socket.socketpair()
        try:
            self.proc = template_factory.fork_template(self.preload, str(self.folder), theirs)
        finally:
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

    def fork(self, order: bytes, theirs: socket.socket) -> int:
        """The pid of the child the template forked for `order` (encode_order's);
        ProtocolError when it refused the order, OSError or ValueError when it
        is gone or answers nonsense. The caller holds `lock`."""
        reply = protocol.send_order(self.control, order, theirs.fileno(), "worker template")
        if reply.startswith(b"refused "):
            why = untrusted.name(reply[len(b"refused "):].decode(errors="replace").strip(), 300)
            raise protocol.ProtocolError(f"the worker template refused its order: {why}")
        return int(reply)

    def start_child(self, order: bytes) -> tuple[socket.socket, int]:
        """Our end of a new child's socket, and its pid: a template that died is
        started again once, and the child asked of the new one on a new socket.
        ProtocolError when the template refused the order, OSError or ValueError
        when the new one failed too. The caller holds `lock`."""
        try:
            return self._child(order)
        except protocol.ProtocolError:
            raise
        except (OSError, ValueError):  # the template died (killed, out of memory): a new one
            self.restart()
            return self._child(order)

    def _child(self, order: bytes) -> tuple[socket.socket, int]:
        ours, theirs = socket.socketpair()
        try:
            return ours, self.fork(order, theirs)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()

    def restart(self) -> None:
        """A new template in place of one that died. The caller holds `lock`."""
        self.control.close()
        self.proc.kill()
        self.proc.wait()
        self._start()

    def close(self) -> None:
        """Close the control socket (the template exits when it sees it close),
        and kill the template if it has not within 5 s."""
        with self.lock:
            self.control.close()
            self.closed = True
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
