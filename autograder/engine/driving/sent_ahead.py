"""Requests sent ahead of their replies, for the notebook's cells.

A worker answers its requests one after the other, in order. Sent one at a
time, each cell costs a round trip: the worker waits for the grader to wake
up and send the next cell, then the grader waits for the worker (on a busy
machine, a wait for a core each way). Sent ahead, the next cells already
wait in the worker's socket when a cell ends, and the grader reads the
replies as they come: reply k answers request k, so a late or missing reply
still names the request that hung or killed the worker.

What must stay true: the grader never blocks sending while the worker may
block sending to it, so the two never wait for each other: the requests
sent and not yet answered always fit in the grader's send buffer, counted
as the kernel counts them (each queued frame costs its bytes and a
bookkeeping of its own: 278 frames of 100 bytes fill a 208 KB buffer), or
there is one request of any size and none other unanswered. A reply is
bounded and checked exactly as WorkerConnection.request checks it, and
anything out of step kills the worker.
"""
from __future__ import annotations

import collections
import socket
import time
from typing import Iterable, Iterator

from autograder import protocol
from autograder.engine.isolation.workers import WorkerConnection

FRAME_COST = 1024
"""What the kernel charges a queued frame beyond twice its bytes: it keeps each
sent piece in a buffer rounded up to a power of two, with about 600 bytes of
bookkeeping (measured on Linux 6.18: 766 bytes for a frame of 1 to 100 bytes,
4,841 for 4,000, 30,427 for 30,000; always below 2 x bytes + FRAME_COST)."""


def cost(frame: bytes) -> int:
    """An upper bound of what `frame` costs the sender's buffer while it waits
    in the worker's socket."""
    return 2 * len(frame) + FRAME_COST


def window(sock: socket.socket) -> int:
    """The cost of requests that may wait unanswered: half the grader's send
    buffer (the kernel's own figure, so a machine with smaller buffers gets a
    smaller window, never a deadlock)."""
    return sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) // 2


def pipelined(conn: WorkerConnection, headers: Iterable[dict], timeout: float,
              max_reply: int = 0) -> Iterator[tuple[dict, list[bytes]]]:
    """Yield the reply (header, buffers) to each request of `headers`, in order,
    the later requests sent before the earlier ones are answered. For requests
    without buffers that lend nothing: a callback frame is out of step here.
    The timeout bounds the whole sequence. A late, oversized or malformed
    reply kills the worker and raises (WorkerTimeout, WorkerDied) where that
    reply is expected, as WorkerConnection.exchange does for one request; so
    does a caller that stops early (the channel would be out of step)."""
    todo = iter(headers)
    unanswered: collections.deque[int] = collections.deque()  # costs sent, not yet answered
    waiting = 0  # their sum
    following = _encode(next(todo, None))
    with conn.exchange(timeout) as channel:
        room = window(conn.sock)
        while following is not None or unanswered:
            while following is not None and (
                    not unanswered or waiting + cost(following) <= room):
                channel.sendall(following)
                conn.traffic.requests += 1
                unanswered.append(cost(following))
                waiting += unanswered[-1]
                following = _encode(next(todo, None))
            start = time.perf_counter()
            reply, buffers = protocol.recv_frame(channel, max_buffers=max_reply)
            conn.traffic.seconds += time.perf_counter() - start
            if "callback" in reply:
                raise protocol.ProtocolError("a callback answering a request that lends nothing")
            waiting -= unanswered.popleft()
            try:
                yield reply, buffers
            except GeneratorExit:  # closed: in step only if every reply has been read
                if following is None and not unanswered:
                    return
                raise


def _encode(header: dict | None) -> bytes | None:
    return None if header is None else protocol.encode_frame(header)
