"""Does a real worker start in a mode, and read Python's own folders there?
Asked of each mode whose needs hold (sandbox.choose), so that a mode is
reported only after a worker really ran in it.
"""
from __future__ import annotations

from typing import Callable

from autograder import protocol
from autograder.engine.isolation.connection import WorkerConnection, WorkerDied, WorkerTimeout

PROBE_CELL = ("import os, sysconfig\n"
              "for key in ('stdlib', 'platstdlib', 'purelib', 'platlib'):\n"
              "    os.listdir(sysconfig.get_paths()[key])\n")


def why_not(spawn: Callable[[], WorkerConnection]) -> str | None:
    """Start a worker with `spawn`, have it import from Python's own folders,
    stop it: None if it worked, else why not."""
    try:
        conn = spawn()
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
