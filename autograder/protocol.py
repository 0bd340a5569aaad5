"""The wire format between the trusted grader and an untrusted worker.

A frame is a 4-byte big-endian length, a JSON header of that length, then the
raw bytes of every buffer the header names (arrays and tensors), each
length-prefixed the same way. Values are encoded as tagged JSON; nothing is
ever pickled, imported or evaluated when decoding, so a hostile peer can at
worst send wrong data. The template's orders (a worker's spec, a sweep, an
audit, a scan) are declared here too, each with its one encoding (encode_order,
decode_order). Both sides import this module; it imports only the standard
library and, lazily, numpy and torch.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import math
import socket
import struct
import sys
import types
import typing
from dataclasses import dataclass
from typing import Callable

# Limits on what one side accepts from the other. A header holds tags and small
# values (arrays travel as buffers), so a megabyte is generous and parses in
# milliseconds; the buffers' cap is the receiver's to choose, sized to the
# answer it expects (a cell report carries none, a call up to MAX_BUFFERS).
MAX_HEADER = 1 << 20
MAX_BUFFERS = 64 << 20
MAX_BUFFER_COUNT = 4096
MAX_TRUSTED_FRAME = 256 << 20  # the worker reading the grader's requests (notebook cells)
# dtypes accepted when decoding arrays/tensors: a fixed list, so a peer
# cannot name an object dtype or anything else that runs code.
ARRAY_DTYPES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "float16", "float32", "float64", "complex64", "complex128",
)
TENSOR_DTYPES = {  # torch dtype name -> numpy dtype name of its bytes
    "bool": "bool", "uint8": "uint8", "int8": "int8", "int16": "int16",
    "int32": "int32", "int64": "int64", "float16": "float16",
    "float32": "float32", "float64": "float64", "complex64": "complex64",
    "complex128": "complex128", "bfloat16": "int16",
}


# Operations: the grader's requests to a worker are {"op": <one of these>, ...};
# the worker answers each with its method op_<name> (worker/server.py). Any
# request may also carry "reset": seed, the start of a test (sent with its first
# request): the worker forgets every handle and seeds as SEED does, then answers.
RUN_CELL = "run_cell"  # index, source: one notebook cell -> {output, error, seconds}
CALL = "call"          # target (name or handle id, optional attr), args, kwargs
GETATTR = "getattr"    # id, attr: an attribute of a handle's object
GET = "get"            # name: a notebook global
HAS = "has"            # name: whether the notebook defines it
LIST = "list"          # id: list(object) of a handle
SEED = "seed"          # seed: random, numpy and torch
NEW = "new"            # path, args, kwargs: construct a library object (torch.nn.Linear)
BUILD = "build"        # source, name, args, kwargs: run the grader's generic probe code
CALLBACK = "callback"  # name: a proxy for a function the grader lends this test
DEFINE = "define"      # name, args: bind a name of the notebook to a handle; or name, lend:
                       # a proxy of the grader's function `name`, if the notebook has the name
EXIT = "exit"          # end the worker
OPERATIONS = (RUN_CELL, CALL, GETATTR, GET, HAS, LIST, SEED, NEW, BUILD, CALLBACK, DEFINE,
              EXIT)
SWEEP = "sweep"
"""Not a worker request: the template's order to clean up after a uid (engine/isolation/orders.py)."""
AUDIT = "audit"
"""Not a worker request: the template's order to judge, as a worker's uid, which secret
path file permissions leave open to it (worker/permissions.py)."""
SCAN = "scan"
"""Not a worker request: the template's order to find, as a worker's uid, every place
on the machine it could write (kernel/writable.py)."""


class ProtocolError(Exception):
    """The peer sent something that is not a valid frame."""


class Handle:
    """A reference to an object that stays in the worker (a module, a generator...)."""

    __slots__ = ("id", "type_name")

    def __init__(self, id: int, type_name: str):
        self.id = id
        self.type_name = type_name

    def __repr__(self):
        return f"<worker object {self.type_name} #{self.id}>"


# ---------------------------------------------------------------- framing

READ_AHEAD = 1 << 16
"""Bytes a Buffered channel asks the socket for at once: a request or an answer
without big arrays fits, so it costs one system call instead of four."""


class Buffered:
    """A socket read READ_AHEAD bytes at a time. `exact(n)` hands out n bytes; what
    was read beyond a frame waits (never more than READ_AHEAD bytes) for the next.
    A buffer larger than READ_AHEAD is read straight into its own bytearray. Writes
    go straight through. One per connection, for the connection's life: a second
    reader of the same socket would lose what this one read ahead."""

    def __init__(self, sock):
        self.sock = sock
        self._data, self._at = b"", 0  # read ahead, and how much of it was handed out

    def exact(self, n: int) -> bytes | bytearray:
        """n bytes: a slice of what was read ahead (a frame's length, header and small
        buffers usually were), reading ahead again for them if need be; for more than
        READ_AHEAD, a bytearray the kernel fills (a large buffer is copied once)."""
        at = self._at
        ahead = len(self._data) - at
        if ahead >= n:
            self._at = at + n
            return self._data[at:at + n]
        if n <= READ_AHEAD:
            chunks, got = [self._data[at:]], ahead
            while got < n:  # a list, not +=: a peer may trickle a byte at a time
                chunk = self._read(READ_AHEAD)
                if not chunk:
                    raise EOFError("channel closed")
                chunks.append(chunk)
                got += len(chunk)
            data = b"".join(chunks)
            self._data, self._at = data, n
            return data[:n]
        out = bytearray(n)
        out[:ahead] = memoryview(self._data)[at:]
        self._data, self._at = b"", 0
        _fill(self._read_into, memoryview(out)[ahead:])
        return out

    def _read(self, n: int) -> bytes:
        return self.sock.recv(n)

    def _read_into(self, view: memoryview) -> int:
        return self.sock.recv_into(view)

    def sendall(self, data: bytes) -> None:
        self.sock.sendall(data)


def _exact(sock, n: int) -> bytes | bytearray:
    if isinstance(sock, Buffered):
        return sock.exact(n)
    out = bytearray(n)
    _fill(sock.recv_into, memoryview(out))
    return out


def _fill(read_into, view: memoryview) -> None:
    while len(view):
        got = read_into(view[:1 << 20])
        if not got:
            raise EOFError("channel closed")
        view = view[got:]


def encode_frame(header: dict, buffers=()) -> bytes:
    """The bytes of one frame: its JSON header's length and text, then each buffer's."""
    body = json.dumps(dict(header, nbuf=len(buffers)), allow_nan=True,
                      separators=(",", ":")).encode()
    parts = [struct.pack(">I", len(body)), body]
    for buf in buffers:
        parts += [struct.pack(">Q", len(buf)), buf]
    return b"".join(parts)


def send_frame(sock, header: dict, buffers=()) -> None:
    sock.sendall(encode_frame(header, buffers))


def recv_frame(sock, max_header: int = MAX_HEADER,
               max_buffers: int | Callable[[dict], int] = MAX_BUFFERS) -> tuple[dict, list[bytes]]:
    """One frame, refused (ProtocolError) as soon as it exceeds a limit: a header of
    more than max_header bytes, or buffers of more than max_buffers bytes in all
    (a number, or a function of the header: the answer it announces decides).
    Nothing beyond a limit is read, so memory and parse time stay bounded."""
    (size,) = struct.unpack(">I", _exact(sock, 4))
    if size > max_header:
        raise ProtocolError(f"frame header of {size} bytes (at most {max_header})")
    try:
        header = json.loads(_exact(sock, size).decode())  # ours is ASCII; bytes would be sniffed
    except (ValueError, RecursionError) as exc:  # RecursionError: nested too deeply
        raise ProtocolError(f"bad frame header: {type(exc).__name__}") from None
    if not isinstance(header, dict):
        raise ProtocolError("frame header is not an object")
    limit = max_buffers(header) if callable(max_buffers) else max_buffers
    count = _int(header.get("nbuf", 0))
    if count > MAX_BUFFER_COUNT:
        raise ProtocolError(f"{count} buffers in one frame")
    buffers, total = [], 0
    for _ in range(count):
        (n,) = struct.unpack(">Q", _exact(sock, 8))
        total += n
        if total > limit:
            raise ProtocolError(f"frame buffers of more than {limit} bytes")
        buffers.append(_exact(sock, n))
    return header, buffers


def _int(x) -> int:
    if type(x) is not int or x < 0:
        raise ProtocolError(f"expected a count, got {type(x).__name__}")
    return x


# ---------------------------------------------------------------- values

class Encoder:
    """Turns plain data into tagged JSON plus buffers.

    `to_handle` is called for anything that is not plain data; the worker
    registers the object and returns its Handle, the trusted side refuses.
    """

    def __init__(self, to_handle):
        self.to_handle = to_handle
        self.buffers: list[bytes] = []

    def encode(self, value, depth: int = 0):
        if depth > 50:
            raise ValueError("value nested too deeply")
        t = type(value)
        if value is None or t is bool or t is str:
            return value
        if t is int:
            return value if abs(value) < 2**63 else {"t": "bigint", "v": str(value)}
        if t is float:
            return value if math.isfinite(value) else {"t": "float", "v": repr(value)}
        if t in (list, tuple):
            return {"t": t.__name__, "v": [self.encode(v, depth + 1) for v in value]}
        if t is dict or t.__name__ == "OrderedDict" and t.__module__ == "collections":
            return {"t": "dict", "v": [[self.encode(k, depth + 1), self.encode(v, depth + 1)]
                                       for k, v in value.items()]}
        if isinstance(value, Handle):
            return {"t": "handle", "id": value.id, "type": value.type_name}
        np = sys.modules.get("numpy")
        if np is not None and t is np.ndarray and value.dtype.name in ARRAY_DTYPES:
            return self._buffer("nd", value.dtype.name, value.shape, value)
        if np is not None and isinstance(value, np.generic) and value.dtype.name in ARRAY_DTYPES:
            return {"t": "npscalar", "dtype": value.dtype.name, "v": self.encode(value.item())}
        torch = sys.modules.get("torch")
        tensor_type = getattr(torch, "Tensor", None)  # None while torch is still importing
        if tensor_type is not None and isinstance(value, tensor_type):
            # parameters and other subclasses travel as their plain data: whatever
            # a subclass claims about itself, the receiver sees only bytes
            return self._tensor(torch, value)
        return self.to_handle(value)

    def _buffer(self, tag, dtype, shape, array):
        np = sys.modules["numpy"]
        self.buffers.append(np.ascontiguousarray(array).tobytes())
        return {"t": tag, "dtype": dtype, "shape": [int(s) for s in shape],
                "buf": len(self.buffers) - 1}

    def _tensor(self, torch, value):
        name = str(value.dtype).replace("torch.", "")
        if name not in TENSOR_DTYPES or value.layout != torch.strided:
            return self.to_handle(value)
        data = value.detach().cpu().contiguous()
        if name == "bfloat16":
            data = data.view(torch.int16)
        out = self._buffer("tensor", name, value.shape, data.numpy())
        out["grad"] = bool(value.requires_grad)
        return out


class Decoder:
    """Inverse of Encoder. `from_handle` maps a handle message to a local object."""

    def __init__(self, buffers, from_handle):
        self.buffers = buffers
        self.from_handle = from_handle

    def decode(self, obj, depth: int = 0):
        if depth > 50:
            raise ProtocolError("value nested too deeply")
        if obj is None or type(obj) in (bool, int, float, str):
            return obj
        if type(obj) is not dict:
            raise ProtocolError(f"untagged {type(obj).__name__}")
        tag = obj.get("t")
        if tag in ("list", "tuple"):
            items = [self.decode(v, depth + 1) for v in _list(obj.get("v"))]
            return items if tag == "list" else tuple(items)
        if tag == "dict":
            return {self._key(k, depth): self.decode(v, depth + 1)
                    for k, v in (_pair(p) for p in _list(obj.get("v")))}
        if tag == "bigint":
            return int(str(obj.get("v")))
        if tag == "float":
            v = obj.get("v")
            if v not in ("inf", "-inf", "nan"):
                raise ProtocolError(f"bad float {v!r}")
            return float(v)
        if tag == "npscalar":
            np = _numpy()
            return np.array(self.decode(obj.get("v")), dtype=_dtype(obj, ARRAY_DTYPES))[()]
        if tag == "nd":
            return self._array(obj, _dtype(obj, ARRAY_DTYPES))
        if tag == "tensor":
            return self._tensor(obj)
        if tag == "handle":
            return self.from_handle(Handle(_int(obj.get("id")), str(obj.get("type"))[:200]))
        raise ProtocolError(f"unknown tag {tag!r}")

    def _key(self, k, depth):
        key = self.decode(k, depth + 1)
        if type(key) not in (str, int, float, bool, tuple) and key is not None:
            raise ProtocolError("unhashable dict key")
        return key

    def _array(self, obj, dtype):
        np = _numpy()
        shape = tuple(_int(s) for s in _list(obj.get("shape")))
        index = _int(obj.get("buf"))
        buf = self.buffers[index]
        count = math.prod(shape)
        if count * np.dtype(dtype).itemsize != len(buf):
            raise ProtocolError("array buffer does not match its shape")
        array = np.frombuffer(buf, dtype=dtype, count=count).reshape(shape)
        if type(buf) is bytearray:  # a large buffer, writable: the array's own, once
            # A peer naming it again (here, or in the same frame's next value) gets a
            # copy: never two arrays sharing memory.
            self.buffers[index] = memoryview(buf).toreadonly()
            return array
        return array.copy()

    def _tensor(self, obj):
        import torch
        name = _dtype(obj, TENSOR_DTYPES)
        array = self._array(obj, TENSOR_DTYPES[name])
        t = torch.from_numpy(array)
        if name == "bfloat16":
            t = t.view(torch.bfloat16)
        if obj.get("grad") is True and t.is_floating_point():
            t.requires_grad_(True)
        return t


def _numpy():
    import numpy
    return numpy


def _list(x) -> list:
    if type(x) is not list:
        raise ProtocolError("expected a list")
    return x


def _pair(x):
    if type(x) is not list or len(x) != 2:
        raise ProtocolError("expected a key/value pair")
    return x


def _dtype(obj, allowed):
    name = obj.get("dtype")
    if name not in allowed:
        raise ProtocolError(f"dtype {name!r} not allowed")
    return name


def pack(value, to_handle) -> tuple[object, list[bytes]]:
    enc = Encoder(to_handle)
    return enc.encode(value), enc.buffers


def unpack(obj, buffers, from_handle):
    """Decode a value; anything that does not decode is a ProtocolError."""
    try:
        return Decoder(buffers, from_handle).decode(obj)
    except ProtocolError:
        raise
    except (LookupError, ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise ProtocolError(f"undecodable value ({type(exc).__name__}: {str(exc)[:200]})") from None


# ---------------------------------------------------------------- the template's orders
#
# The control channel: the grader (engine/isolation/template_process.py) sends the
# template (worker/template.py) one order at a time, with one descriptor
# attached: start a worker (WorkerSpec), sweep a uid (SweepOrder), audit
# one (AuditOrder) or walk the machine as one (ScanOrder). Each is declared
# once, here, and travels only through encode_order / decode_order, which
# both check every field against its declared type: a missing, unknown or
# mistyped field is a ProtocolError, on the grader's side before anything is
# sent, on the template's before anything is forked.

def send_order(control: socket.socket, order: bytes, fd: int, who: str,
               limit: int = 4096) -> bytes:
    """Send `order` with the descriptor `fd` attached on a control socket (the
    template's, or the template factory's) and read its one-line reply; OSError
    when `who` is gone, ValueError when the reply has no end within `limit` bytes."""
    socket.send_fds(control, [order], [fd])
    reply = b""
    while not reply.endswith(b"\n"):
        chunk = control.recv(64)
        if not chunk:
            raise OSError(f"the {who} exited")
        reply += chunk
        if len(reply) > limit:
            raise ValueError(f"the {who}'s answer has no end")
    return reply


SPAWN = "spawn"
"""Not a worker request: the template's order to fork a worker (WorkerSpec)."""
MAX_ORDER = 1 << 20
"""Bytes of one order the template reads."""


@dataclass(frozen=True)
class WorkerLimits:
    """The kernel limits a worker sets on itself (engine/isolation/sandbox.py
    chooses them for the batch's mode, worker/confine.apply_limits sets them)."""
    cpu_seconds: int
    disk_mb: int
    """Its tmpfs, or (kernel/disk.py) all of its files; and any one file."""
    processes: int
    """Processes of the submission (its pids cgroup, or the fallback count)."""
    as_mb: int
    """What each process may map beyond what the template maps."""
    nproc: int | None
    """RLIMIT_NPROC, where the count is the worker's own (its uid or its user
    namespace); None: not set."""
    exec: bool
    """Whether it may start new programs (only where a cgroup bounds memory)."""


@dataclass(frozen=True)
class WorkerSpec:
    """Fork a worker, confine it and serve on the attached socket. Names no
    secret path: every worker is a copy of the template's memory."""
    sandbox: str
    """The batch's mode, by name (kernel/modes.BY_NAME)."""
    uid: int | None
    """Its own uid from the pool (the grader is root), else None."""
    workdir: str
    """Its folder, made for it by the grader."""
    read: tuple[str, ...]
    """The Python paths it may read (kernel/allowlist.python_paths)."""
    cgroups: tuple[str, ...]
    """The cgroup.procs files it joins first."""
    seed: int
    limits: WorkerLimits
    forbid: tuple[str, ...]
    """Modules the student's code may not import."""
    shared: tuple[str, ...]
    """The machine's folders its uid may create files in beside its own
    (kernel/writable.py; none where namespaces or Landlock keep it in its own
    folder): its waiter meters its files there too (kernel/disk.py)."""


@dataclass(frozen=True)
class SweepOrder:
    """As `uid`, kill its processes (and, with `shared`, remove its IPC
    objects, and its files in `folders`, the machine's folders it may create
    files in: kernel/sweep.py); b"1" on the attached socket if nothing of it
    is left."""
    uid: int
    shared: bool
    folders: tuple[str, ...]


@dataclass(frozen=True)
class AuditOrder:
    """As `uid`, judge which of the paths that come on the attached socket
    file permissions leave open to it (worker/permissions.py)."""
    uid: int


@dataclass(frozen=True)
class ScanOrder:
    """As `uid`, find every folder it could create files in and every regular
    file it could write, and every folder a uid of [owners[0], owners[1]) owns
    (kernel/writable.py); one JSON line on the attached socket."""
    uid: int
    owners: tuple[int, ...]


Order = WorkerSpec | SweepOrder | AuditOrder | ScanOrder
ORDERS: dict[str, type] = {SPAWN: WorkerSpec, SWEEP: SweepOrder, AUDIT: AuditOrder,
                           SCAN: ScanOrder}


def encode_order(order: Order) -> bytes:
    """The order as one JSON object, {"op": <its kind>, <its fields>}, once
    every field is checked (ProtocolError: a bug of the grader's, told before
    anything is sent)."""
    op = next((name for name, kind in ORDERS.items() if type(order) is kind), None)
    if op is None:
        raise ProtocolError(f"not an order: {type(order).__name__}")
    _check_fields(order, type(order).__name__)
    return json.dumps({"op": op, **dataclasses.asdict(order)}, separators=(",", ":")).encode()


def decode_order(data: bytes) -> Order:
    """The inverse of encode_order; ProtocolError, naming the field, for
    anything else (not JSON, an unknown kind, a missing, unknown or mistyped field)."""
    if len(data) > MAX_ORDER:
        raise ProtocolError(f"an order of {len(data)} bytes (at most {MAX_ORDER})")
    try:
        plain = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"an order that is not JSON ({type(exc).__name__})") from None
    if type(plain) is not dict:
        raise ProtocolError("an order that is not a JSON object")
    op = plain.pop("op", None)
    if type(op) is not str or op not in ORDERS:
        raise ProtocolError(f"unknown order {repr(op)[:40]}")
    return _from_plain(ORDERS[op], plain, ORDERS[op].__name__)


def _from_plain(kind: type, plain, where: str):
    if type(plain) is not dict:
        raise ProtocolError(f"{where}: expected an object, got {type(plain).__name__}")
    hints = _hints(kind)
    missing, unknown = hints.keys() - plain.keys(), plain.keys() - hints.keys()
    if missing or unknown:
        said = [f"{what} field(s) {', '.join(sorted(names))[:200]}"
                for what, names in (("missing", missing), ("unknown", unknown)) if names]
        raise ProtocolError(f"{where}: {'; '.join(said)}")
    values = {}
    for name, hint in hints.items():
        value = plain[name]
        if dataclasses.is_dataclass(hint):
            value = _from_plain(hint, value, f"{where}.{name}")
        elif typing.get_origin(hint) is tuple and type(value) is list:
            value = tuple(value)  # JSON has lists only
        values[name] = value
    order = kind(**values)
    _check_fields(order, where)
    return order


def _check_fields(obj, where: str) -> None:
    for name, hint in _hints(type(obj)).items():
        value = getattr(obj, name)
        if dataclasses.is_dataclass(hint) and type(value) is hint:
            _check_fields(value, f"{where}.{name}")
        elif not _fits(value, hint):
            raise ProtocolError(f"{where}.{name}: expected {_name(hint)}, "
                                f"got {type(value).__name__}")


def _fits(value, hint) -> bool:
    """Whether `value` is of `hint` (the few types orders use); bool is no int here."""
    if hint is type(None):
        return value is None
    if hint in (int, bool, str):
        return type(value) is hint
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is types.UnionType:
        return any(_fits(value, a) for a in args)
    if origin is tuple and args[1:] == (...,):
        return type(value) is tuple and all(_fits(v, args[0]) for v in value)
    return False  # a dataclass of the wrong type; any other hint: declare no such field


def _name(hint) -> str:
    return str(hint) if typing.get_args(hint) else hint.__name__


@functools.cache
def _hints(kind: type) -> dict:
    """Field name -> its type (the annotations are strings: __future__)."""
    return typing.get_type_hints(kind)
