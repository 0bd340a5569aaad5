"""The template's orders other than a worker: a child forked to act as a
worker's uid, once, and answer on its own socket.

The sweep (kernel/sweep.py) clears what a uid left before the uid is used
again; the audit (worker/permissions.py) and the scan (kernel/writable.py)
judge, before any submission is graded, whether a mode's needs hold. Their
answers come from a process of a worker's uid, so they are bounded and
cleaned as hostile.
"""
from __future__ import annotations

import json
import socket

from autograder import protocol
from autograder.engine.intake import untrusted
from autograder.engine.isolation import uidpool
from autograder.engine.isolation.sandbox import Sandbox
from autograder.engine.isolation.template_process import TemplateProcess
from autograder.kernel import writable
from autograder.kernel.sweep import SECONDS as SWEEP_SECONDS


class Orders:
    """The orders of one batch, forked by its template, as uids of its sandbox."""

    def __init__(self, process: TemplateProcess, sandbox: Sandbox):
        self.process = process
        self.sandbox = sandbox

    def sweep(self, uid: int) -> bool:
        """Have the template fork a child that, as `uid`, kills all its
        processes (and, without namespaces, removes its IPC objects and its files
        in the machine's folders open to it); True if nothing of it is left."""
        order = protocol.SweepOrder(uid=uid, shared=not self.sandbox.spec.namespaces,
                                    folders=self.sandbox.shared)
        return self.order(order, SWEEP_SECONDS + 10, 1) == b"1"

    def audit(self, secret: list[str], read_only: list[str]) -> str | None:
        """As a worker's uid (from the pool): the first secret path it could
        read or write, or Python path it could write, by file permissions
        (worker/permissions.py), as a sentence; an audit that gives no answer
        counts as open."""
        uid = self.sandbox.uids.acquire()
        try:  # the paths go to the auditing child alone, never through the template
            reply = self.order(protocol.AuditOrder(uid=uid), 60, 1 << 16, json.dumps(
                {"secret": secret, "read_only": read_only}).encode())
        finally:
            self.sandbox.uids.release(uid, True)  # it ran no process of its own
        try:
            found = json.loads(reply)["open"]
            return None if found is None else f"{untrusted.name(found, 500)} by the workers' uids"
        except (ValueError, KeyError, TypeError):
            return "file permissions could not be checked as a worker's uid"

    def scan(self) -> dict:
        """As a worker's uid (from the pool): every place on the machine it
        could write, and every folder a uid of the pool owns (kernel/writable.py),
        {"folders": [...], "files": [...]}, or {"error": why}."""
        uid = self.sandbox.uids.acquire()
        try:
            pool = self.sandbox.uids.base, self.sandbox.uids.base + uidpool.SPAN
            reply = self.order(protocol.ScanOrder(uid=uid, owners=pool), writable.SECONDS + 10,
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

    def order(self, order: protocol.Order, timeout: float,
              size: int, data: bytes = b"") -> bytes:
        """Have the template fork a child for `order` (a sweep, an audit, a scan), hand
        the child `data` on its own socket (then the end of writing), and
        return its answer, at most `size` bytes (b"" when there is none in time,
        or the template refused the order)."""
        try:
            encoded = protocol.encode_order(order)
            with self.process.lock:
                if self.process.closed:  # never a new template for a closed batch
                    return b""
                ours, _ = self.process.start_child(encoded)
        except (OSError, ValueError, protocol.ProtocolError):
            return b""
        try:
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
