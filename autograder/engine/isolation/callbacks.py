"""Functions a hidden test lends the worker for the length of that test.

Where a test needs a known-good piece beside the student's code (hw1's
attention inside the student's TinySelfAttn), its code is never sent into the
worker: the test lends a trusted function here, binds a generic proxy in the
worker (`student.callback`), and the grader computes the answer on the data
the proxy sends. What must stay true:

* a callback is answered only while the test that lent it runs: the lending
  belongs to that test's Student; any other callback is refused;
* its arguments are data, capped in bytes (beyond the cap the frame is not
  read and the worker is killed), and the number of calls is capped (further
  calls are refused);
* the function runs in the grader on hostile arguments: it checks their
  types, counts from their shapes the work they would cause (what the
  computation allocates, broadcasting included: 80 KB of q and k once
  broadcast to 1.8 GB) and refuses beyond its bound before doing any; its
  refusal is an error in that student's code, never the batch's; and it
  never calls the student;
* it answers only inputs its test made, or made of them: the student's code
  chooses what it sends, and the answer for an input it chose (one kept from
  another test) could be that test's expected value (hw1's LentAttention,
  hw2's and hw4's lent references);
* time: each call's work is bounded by its size, the calls by max_calls,
  and the request's deadline covers the exchange, answering included.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from autograder import protocol

MAX_CALLS = 1000
MAX_ARG_BYTES = 1 << 20
REFUSED_ARG_BYTES = 1 << 16  # what a call to nothing lent may carry before the worker is stopped


@dataclass
class Lent:
    func: Callable
    max_calls: int
    max_arg_bytes: int
    calls: int = 0


class Callbacks:
    """The functions lent during one test, by name."""

    def __init__(self):
        self._lent: dict[str, Lent] = {}

    def lend(self, name: str, func: Callable, max_calls: int = MAX_CALLS,
             max_arg_bytes: int = MAX_ARG_BYTES) -> None:
        self._lent[name] = Lent(func, max_calls, max_arg_bytes)

    def arg_limit(self, header: dict) -> int:
        """Bytes of buffers the callback frame `header` may carry."""
        lent = self._lent.get(header.get("callback"))
        return lent.max_arg_bytes if lent is not None else REFUSED_ARG_BYTES

    def answer(self, header: dict, buffers: list[bytes]) -> tuple[dict, list[bytes]]:
        """The reply to one callback frame. A malformed frame raises ProtocolError
        (the caller kills the worker); a refusal or the function's exception is
        an error reply, raised in the student's code as GraderError."""
        name = header.get("callback")
        if type(name) is not str:
            raise protocol.ProtocolError("a callback without a name")
        lent = self._lent.get(name)
        if lent is None:
            return _error(f"{name[:100]} is not available: the grader lends it only during "
                          "the test that needs it")
        if lent.calls >= lent.max_calls:
            return _error(f"{name} was called more than {lent.max_calls} times in one test")
        lent.calls += 1
        args = protocol.unpack(header.get("args"), buffers, lambda handle: handle)
        kwargs = protocol.unpack(header.get("kwargs"), buffers, lambda handle: handle)
        if type(args) is not tuple or type(kwargs) is not dict or \
                not all(type(k) is str for k in kwargs):
            raise protocol.ProtocolError("callback arguments are not a tuple and a dict")
        try:
            value = lent.func(*args, **kwargs)
        except Exception as exc:  # hostile arguments: the student's code gets the error
            return _error(f"{name}: {type(exc).__name__}: {str(exc)[:300]}")
        return _ok(value)


def _ok(value) -> tuple[dict, list[bytes]]:
    obj, buffers = protocol.pack(value, _refuse)
    return {"ok": obj}, buffers


def _error(message: str) -> tuple[dict, list[bytes]]:
    return {"error": {"type": "GraderError", "message": message}}, []


def _refuse(value):
    raise TypeError(f"a lent function returned a {type(value).__name__}, not plain data")
