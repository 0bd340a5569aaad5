"""Does the wire format carry plain data faithfully and refuse everything else,
and does a worker that breaks its limits lose its process at once?"""
from __future__ import annotations

import json
import signal
import socket
import struct
import subprocess
import threading
from collections import OrderedDict

import numpy as np
import pytest
import torch

from autograder import protocol
from autograder.engine.driving.student import Student
from autograder.engine.isolation.workers import WorkerDied, WorkerTimeout


def roundtrip(value):
    handles = []
    obj, bufs = protocol.pack(value, lambda v: handles.append(v) or
                              {"t": "handle", "id": len(handles), "type": type(v).__name__})
    a, b = socket.socketpair()
    with a, b:
        protocol.send_frame(a, {"ok": obj, "nbuf": len(bufs)}, bufs)
        header, buffers = protocol.recv_frame(b)
    return protocol.unpack(header["ok"], buffers, lambda h: ("handle", h.id, h.type_name))


@pytest.mark.parametrize("value", [
    None, True, 0, -7, 2**70, 1.5, "héllo", [1, [2, (3, "x")]], (1,), {"a": 1, 2: [3]},
    float("inf"), float("-inf"),
])
def test_plain_values_round_trip(value):
    assert roundtrip(value) == value and type(roundtrip(value)) is type(value)


def test_nan_round_trips():
    assert np.isnan(roundtrip(float("nan")))


def test_arrays_tensors_and_scalars_keep_dtype_shape_and_values():
    arr = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    got = roundtrip(arr)
    assert got.dtype == np.int16 and got.shape == (2, 3, 4) and (got == arr).all()
    t = torch.randn(3, 5, generator=torch.Generator().manual_seed(0)).requires_grad_()
    got = roundtrip(t)
    assert got.dtype == torch.float32 and got.requires_grad and torch.equal(got, t.detach())
    assert roundtrip(torch.tensor(3.5, dtype=torch.bfloat16)).dtype == torch.bfloat16
    assert roundtrip(torch.nn.Parameter(torch.ones(2))).tolist() == [1.0, 1.0]
    s = roundtrip(np.int64(5))
    assert type(s) is np.int64 and s == 5
    assert roundtrip(torch.zeros(0, 3)).shape == (0, 3)


def test_ordered_dict_keeps_order():
    sd = OrderedDict([("b", 1), ("a", 2)])
    assert list(roundtrip(sd)) == ["b", "a"]


def test_other_objects_become_handles():
    assert roundtrip(object())[0] == "handle"
    assert roundtrip(np.array([object()], dtype=object))[0] == "handle"



class _Trickle:
    """A socket's reading end that hands out at most `piece` bytes a call of what
    `raw` holds, and counts what it was asked for."""

    def __init__(self, raw: bytes, piece: int):
        self.raw, self.piece, self.asked = raw, piece, []

    def recv(self, n: int) -> bytes:
        self.asked.append(n)
        out, self.raw = self.raw[:min(n, self.piece)], self.raw[min(n, self.piece):]
        return out

    def recv_into(self, view: memoryview) -> int:
        out = self.recv(len(view))
        view[:len(out)] = out
        return len(out)


@pytest.mark.parametrize("piece", [1, 5, 4096, protocol.READ_AHEAD, 1 << 22])
def test_a_buffered_channel_reads_each_frame_whole_however_the_bytes_arrive(piece):
    """Frames sent together (as answers to requests sent ahead are) or trickled a
    byte at a time come out of one Buffered channel whole and in order; what it
    reads ahead never exceeds READ_AHEAD bytes, and the end of the bytes is
    the end of the channel."""
    big = np.arange(protocol.READ_AHEAD, dtype=np.float32)  # four times READ_AHEAD in bytes
    frames = [({"ok": 1}, []), ({"ok": "two"}, [big.tobytes()]), ({"ok": None}, [b"", b"xyz"])]
    source = _Trickle(b"".join(protocol.encode_frame(h, b) for h, b in frames), piece)
    channel = protocol.Buffered(source)
    for header, buffers in frames:
        got, got_buffers = protocol.recv_frame(channel)
        assert got == dict(header, nbuf=len(buffers)) and got_buffers == buffers
        assert len(channel._data) - channel._at <= protocol.READ_AHEAD
    assert max(source.asked) <= max(protocol.READ_AHEAD, len(big.tobytes()))
    with pytest.raises(EOFError):
        protocol.recv_frame(channel)


def test_a_large_buffer_named_twice_gives_arrays_of_their_own():
    """A large buffer is read into a bytearray and becomes its array without a copy;
    a peer naming it twice, in one value or in the args and kwargs of one callback
    (decoded one after the other), never gets two arrays sharing memory."""
    big = np.arange(protocol.READ_AHEAD, dtype=np.float32)
    array = {"t": "nd", "dtype": "float32", "shape": [len(big)], "buf": 0}
    frame = protocol.encode_frame({"ok": {"t": "list", "v": [array, array]}}, [big.tobytes()])
    channel = protocol.Buffered(_Trickle(frame, 1 << 22))
    header, buffers = protocol.recv_frame(channel)
    first, second = protocol.unpack(header["ok"], buffers, None)
    third = protocol.unpack(array, buffers, None)
    for x in (first, second, third):
        assert x.flags.writeable and np.array_equal(x, big)
    first[:] = -1
    assert not (np.shares_memory(first, second) or np.shares_memory(first, third)
                or np.shares_memory(second, third))
    assert np.array_equal(second, big) and np.array_equal(third, big)


def test_a_buffered_channel_keeps_the_limits():
    """Through a Buffered channel, a frame beyond a limit is refused as from the socket."""
    frame = _header({"nbuf": 1}) + struct.pack(">Q", 2**40)
    with pytest.raises(protocol.ProtocolError):
        protocol.recv_frame(protocol.Buffered(_Trickle(frame, 1 << 20)))
    with _frames(struct.pack(">I", protocol.MAX_HEADER + 1)) as sock:
        with pytest.raises(protocol.ProtocolError):
            protocol.recv_frame(protocol.Buffered(sock))


@pytest.mark.parametrize("bad", [
    {"t": "nd", "dtype": "object", "shape": [1], "buf": 0},
    {"t": "nd", "dtype": "float64", "shape": [3], "buf": 0},   # 8 bytes for 3 float64
    {"t": "nd", "dtype": "float64", "shape": [-1], "buf": 0},
    {"t": "pickle", "v": "gASV"},
    {"t": "float", "v": "__import__('os')"},
    {"t": "dict", "v": [[{"t": "list", "v": []}, 1]]},           # unhashable key
    ["untagged list"],
])
def test_hostile_values_are_refused(bad):
    with pytest.raises(protocol.ProtocolError):
        protocol.unpack(bad, [b"\0" * 8], lambda h: h)


def test_oversized_and_broken_frames_are_refused():
    a, b = socket.socketpair()
    with a, b:
        a.sendall(struct.pack(">I", protocol.MAX_HEADER + 1))
        with pytest.raises(protocol.ProtocolError):
            protocol.recv_frame(b)
    a, b = socket.socketpair()
    with a, b:
        body = b"not json"
        a.sendall(struct.pack(">I", len(body)) + body)
        with pytest.raises(protocol.ProtocolError):
            protocol.recv_frame(b)
    a, b = socket.socketpair()
    with a, b:
        a.sendall(struct.pack(">I", 2) + b"{}")
        a.close()
        assert protocol.recv_frame(b) == ({}, [])
        with pytest.raises(EOFError):
            protocol.recv_frame(b)


def test_nesting_is_bounded():
    deep = {"t": "list", "v": []}
    for _ in range(60):
        deep = {"t": "list", "v": [deep]}
    with pytest.raises(protocol.ProtocolError):
        protocol.unpack(json.loads(json.dumps(deep)), [], lambda h: h)


# ---------------------------------------------------------------- limits

def _frames(*raw: bytes):
    """A socket from which recv_frame reads `raw` (written by a thread: it may
    exceed the socket's buffer), then end of file."""
    a, b = socket.socketpair()

    def write():
        with a:
            try:
                a.sendall(b"".join(raw))
            except OSError:  # the reader stopped early, as it should
                pass
    threading.Thread(target=write, daemon=True).start()
    return b


def _header(obj) -> bytes:
    body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return struct.pack(">I", len(body)) + body


@pytest.mark.parametrize("raw, why", [
    (struct.pack(">I", protocol.MAX_HEADER + 1), "a header over the cap is refused unread"),
    (_header(b"[" * 500_000 + b"]" * 500_000), "nesting that exhausts the parser's recursion"),
    (_header(b'{"ok": "\xff\xfe"}'), "bytes that are not UTF-8"),
    (_header({"nbuf": protocol.MAX_BUFFER_COUNT + 1}), "too many buffers"),
    (_header({"nbuf": -1}), "a negative count"),
    (_header({"nbuf": 1}) + struct.pack(">Q", 2**63), "a buffer over the cap is refused unread"),
])
def test_frames_beyond_the_limits_are_refused(raw, why):
    with _frames(raw) as sock:
        with pytest.raises(protocol.ProtocolError):
            protocol.recv_frame(sock)


def test_the_caller_sizes_the_buffers_it_accepts():
    frame = _header({"nbuf": 2}) + b"".join(struct.pack(">Q", 600) + b"x" * 600 for _ in "ab")
    with _frames(frame) as sock:
        assert len(protocol.recv_frame(sock, max_buffers=1200)[1]) == 2
    with _frames(frame) as sock:
        with pytest.raises(protocol.ProtocolError):  # a cell report, say: no arrays at all
            protocol.recv_frame(sock, max_buffers=1199)
    with _frames(frame) as sock:  # the cap may depend on what the header announces
        with pytest.raises(protocol.ProtocolError):
            protocol.recv_frame(sock, max_buffers=lambda h: 0 if h["nbuf"] > 1 else 10**6)


@pytest.mark.parametrize("bad", [
    {"t": "bigint", "v": "9" * 5000},                              # beyond int()'s digit limit
    {"t": "nd", "dtype": "float64", "shape": [1], "buf": 3},      # no such buffer
    {"t": "npscalar", "dtype": "int64", "v": "x"},
    {"t": "nd", "dtype": "uint8", "shape": [0, 2**62, 2**62], "buf": 0},
    {"t": "handle", "id": -1, "type": "x"},
])
def test_undecodable_values_are_protocol_errors(bad):
    with pytest.raises(protocol.ProtocolError):
        protocol.unpack(bad, [b""], lambda h: h)


# ---------------------------------------------------------------- a worker that breaks them

@pytest.fixture
def fake_worker(tmp_path):
    """A WorkerConnection whose worker is a sleeping process; the test plays the
    worker's end of the socket. Yields (connection, worker's socket, process)."""
    from autograder.engine.isolation.workers import WorkerConnection
    proc = subprocess.Popen(["sleep", "600"], start_new_session=True)
    ours, theirs = socket.socketpair()
    protocol.send_frame(theirs, {"worker_pid": proc.pid})
    protocol.send_frame(theirs, {"ready": 1})  # confined: student code may run
    (tmp_path / "w").mkdir()
    conn = WorkerConnection(ours, proc.pid, tmp_path / "w")
    yield conn, theirs, proc
    conn.kill()
    theirs.close()
    proc.wait()


def _answer_with(sock, raw: bytes):
    """In a thread: read one request, answer it with the bytes `raw`."""
    def run():
        protocol.recv_frame(sock, protocol.MAX_TRUSTED_FRAME, protocol.MAX_TRUSTED_FRAME)
        sock.sendall(raw)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("raw", [
    struct.pack(">I", 128 * 2**20),                                   # the reply bomb's length
    _header(b"[" * 500_000 + b"]" * 500_000),
    _header({"ok": None, "nbuf": 1}) + struct.pack(">Q", 65 * 2**20),  # over the 64 MB default
    _header({"ok": {"t": "bigint", "v": "9" * 5000}}),
    _header({"ok": {"t": "nd", "dtype": "float32", "shape": [2], "buf": 0}}),
    _header({"error": "not a report"}),
    _header({"error": {"type": "E", "message": "m", "mro": 7}}),
    _header({"neither": 1}),
    _header({"callback": 5}),
])
def test_a_malformed_oversized_or_undecodable_answer_kills_the_worker(fake_worker, raw):
    conn, theirs, proc = fake_worker
    thread = _answer_with(theirs, raw)
    with pytest.raises(WorkerDied) as caught:
        Student(conn, call_seconds=60).f(1)
    assert not isinstance(caught.value, WorkerTimeout)  # refused at once, not waited out
    assert conn.dead and proc.wait(timeout=10) == -signal.SIGKILL
    assert not conn.workdir.exists()
    thread.join(5)


def test_a_cell_report_that_is_not_a_report_kills_the_worker(fake_worker):
    from autograder.engine.driving.runner import _cell_report
    conn, theirs, proc = fake_worker
    for reply in ({"ok": 5}, {"ok": {"t": "dict", "v": [["output", 3]]}}, {"error": {}}):
        with pytest.raises(WorkerDied):
            _cell_report(reply, [])
    _answer_with(theirs, _header({"ok": None, "nbuf": 1}) + struct.pack(">Q", 1) + b"x")
    with pytest.raises(WorkerDied):  # a cell report carries no arrays
        conn.request({"op": "run_cell", "index": 1, "source": ""}, max_reply=0)
    assert conn.dead


def test_a_well_formed_answer_still_arrives(fake_worker):
    conn, theirs, _ = fake_worker
    obj, bufs = protocol.pack(np.arange(3.0), None)
    _answer_with(theirs, _header({"ok": obj, "nbuf": 1}) + struct.pack(">Q", 24) + bufs[0])
    assert Student(conn, call_seconds=60).f(1).tolist() == [0.0, 1.0, 2.0]
    assert not conn.dead
