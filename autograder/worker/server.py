"""The worker's loop: run the notebook's cells, then answer the grader's calls.

Every request is a frame {"op": ..., ...}; every reply is {"ok": value} or
{"error": {...}}. Objects that are not plain data stay here and travel as
handles. Nothing this module sends back is trusted by the grader beyond
being data.

While it answers a request, the worker may call back: a GraderFunction (a
function the grader lends for one test, in place of known-good code that
would otherwise have to be sent here) sends {"callback": name, "args": ...}
and waits for the grader's {"ok": value} or {"error": {...}}.
"""
from __future__ import annotations

import builtins
import importlib
import io
import random
import sys
import time
import traceback
import types

from autograder import protocol

OUTPUT_CAP = 64 * 1024  # characters of notebook output kept for the student's feedback


class CappedText(io.TextIOBase):
    """A stdout replacement that keeps the first OUTPUT_CAP characters."""

    def __init__(self):
        self.parts, self.size, self.dropped = [], 0, 0

    def writable(self):
        return True

    def write(self, s):
        s = str(s)
        room = OUTPUT_CAP - self.size
        if room > 0:
            self.parts.append(s[:room])
            self.size += min(len(s), room)
        self.dropped += max(0, len(s) - max(room, 0))
        return len(s)

    def text(self) -> str:
        tail = f"\n[... {self.dropped} more characters of output dropped]" if self.dropped else ""
        return "".join(self.parts) + tail


def otter_stub() -> types.ModuleType:
    """`import otter; grader = otter.Notebook(...); grader.check(...)` must
    neither fail nor cost time (nor run public tests) while grading."""
    class Notebook:
        def __init__(self, *args, **kwargs):
            pass

        def __getattr__(self, name):
            return lambda *args, **kwargs: None

    otter = types.ModuleType("otter")
    otter.Notebook = Notebook
    return otter


class ForbiddenImports:
    """A meta-path finder refusing modules an assignment does not allow."""

    def __init__(self, names):
        self.names = set(names)

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.names:
            raise ImportError(f"{name} is not available in this assignment")
        return None


def error_report(exc: BaseException) -> dict:
    def safe(f, default):
        try:
            return f()
        except BaseException:  # a hostile __str__ must not take the worker down
            return default
    kind = type(exc)
    return {
        "type": safe(lambda: kind.__name__, "Exception"),
        "mro": safe(lambda: [k.__name__ for k in kind.__mro__], []),
        "message": safe(lambda: str(exc), "<unprintable>")[:2000],
        "traceback": safe(lambda: "".join(traceback.format_exception(exc))[-4000:], ""),
    }


class GraderError(RuntimeError):
    """The grader refused a callback or its function raised; the message says which."""


class GraderFunction:
    """A function lent by the grader: calling it sends the arguments to the grader,
    which computes the answer. It holds a name only, never code."""

    def __init__(self, server: "Server", name: str):
        self._server, self._name = server, name

    def __call__(self, *args, **kwargs):
        return self._server.call_grader(self._name, args, kwargs)

    def __repr__(self):
        return f"<function {self._name} lent by the grader>"

    def __deepcopy__(self, memo):  # a copied model shares the grader's function, not a socket
        return self


def seed_everything(seed: int) -> None:
    random.seed(seed)
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed(seed)
    if "torch" in sys.modules:
        sys.modules["torch"].manual_seed(seed)


class Server:
    MAX_HELPERS = 64  # compiled grader helpers kept (each test module sends a few)

    def __init__(self, sock, seed: int):
        self.sock = protocol.Buffered(sock)  # the grader may send requests ahead (sent_ahead)
        self.namespace = {"__name__": "__main__", "__builtins__": builtins}
        self.handles: dict[int, object] = {}
        self.helpers: dict[str, object] = {}  # grader helper source -> code object
        self.next_id = 1
        seed_everything(seed)
        sys.stdout = sys.stderr = CappedText()  # nothing reaches the real descriptors

    # ------------------------------------------------------------ handles
    def to_handle(self, obj) -> dict:
        hid = self.next_id
        self.next_id += 1
        self.handles[hid] = obj
        try:
            name = type(obj).__name__
        except BaseException:
            name = "object"
        return {"t": "handle", "id": hid, "type": str(name)[:100]}

    def from_handle(self, h: protocol.Handle):
        if h.id not in self.handles:
            raise LookupError(f"unknown handle {h.id}")
        return self.handles[h.id]

    # ------------------------------------------------------------ loop
    def receive(self):
        return protocol.recv_frame(self.sock, protocol.MAX_TRUSTED_FRAME,
                                   protocol.MAX_TRUSTED_FRAME)

    def serve(self) -> None:
        while True:
            try:
                header, buffers = self.receive()
            except EOFError:
                return
            op = header.get("op")
            try:
                value = self.dispatch(op, header, buffers)
                obj, bufs = protocol.pack(value, self.to_handle)
                reply = {"ok": obj}
            except BaseException as exc:  # the student's error, reported as data
                if isinstance(exc, SystemExit) and op == protocol.EXIT:
                    return
                reply, bufs = {"error": error_report(exc)}, []
            protocol.send_frame(self.sock, reply, bufs)

    def call_grader(self, name: str, args: tuple, kwargs: dict):
        """Send a callback to the grader and wait for its answer (within the
        request being served: the grader answers, then waits for our reply)."""
        enc = protocol.Encoder(self.to_handle)
        header = {"callback": name, "args": enc.encode(tuple(args)),
                  "kwargs": enc.encode(dict(kwargs))}
        protocol.send_frame(self.sock, header, enc.buffers)
        reply, buffers = self.receive()
        if "error" in reply:
            raise GraderError(str(reply["error"].get("message", "refused"))[:2000])
        return protocol.unpack(reply.get("ok"), buffers, self.from_handle)

    def dispatch(self, op, header, buffers):
        """Answer one request with its method op_<name> (names: protocol.OPERATIONS)."""
        handler = getattr(self, f"op_{op}", None) if op in protocol.OPERATIONS else None
        if handler is None:
            raise ValueError(f"unknown request: {op!r}")
        if "reset" in header:  # a test begins (with its first request): the last test's
            self.handles.clear()  # objects go, every generator reseeded
            seed_everything(header["reset"])
        args = kwargs = None
        if "args" in header:
            args = protocol.unpack(header["args"], buffers, self.from_handle)
            kwargs = protocol.unpack(header.get("kwargs", {"t": "dict", "v": []}),
                                     buffers, self.from_handle)
        return handler(header, args, kwargs)

    def op_run_cell(self, header, args, kwargs):
        return self.run_cell(header["index"], header["source"])

    def op_call(self, header, args, kwargs):
        func = self.resolve(header["target"])
        if "times" in header:  # a sampling loop in one request (Student.repeat)
            return [func(*args, **kwargs) for _ in range(int(header["times"]))]
        return func(*args, **kwargs)

    def op_getattr(self, header, args, kwargs):
        return getattr(self.from_handle(protocol.Handle(header["id"], "")), header["attr"])

    def op_get(self, header, args, kwargs):
        return self.resolve({"name": header["name"]})

    def op_has(self, header, args, kwargs):
        return header["name"] in self.namespace

    def op_list(self, header, args, kwargs):
        return list(self.from_handle(protocol.Handle(header["id"], "")))

    def op_seed(self, header, args, kwargs):
        seed_everything(header["seed"])

    def op_new(self, header, args, kwargs):
        module, _, attr = header["path"].rpartition(".")
        return getattr(importlib.import_module(module), attr)(*args, **kwargs)

    def op_build(self, header, args, kwargs):
        scope: dict = {"__name__": "grader_helper"}
        exec(self.compiled(header["source"]), scope)
        return scope[header["name"]](*args, **kwargs)

    def op_callback(self, header, args, kwargs):
        """A proxy for a function the grader lends this test."""
        return GraderFunction(self, str(header["name"]))

    def op_define(self, header, args, kwargs):
        """A lent function in place of the student's: one bug costs one question. With
        `lend`, the grader's function of that name, and only where the notebook has
        one (whether it was bound is the answer)."""
        name = header["name"]
        if header.get("lend"):
            if name not in self.namespace:
                return False
            self.namespace[name] = self.op_callback(header, args, kwargs)
            return True
        self.namespace[name] = args[0]

    def op_exit(self, header, args, kwargs):
        raise SystemExit(0)

    def compiled(self, source: str):
        """A grader helper's code, compiled once per worker: tests build from the
        same few sources again and again (1 ms to compile hw2's models, 0.02 ms
        to run the result)."""
        code = self.helpers.get(source)
        if code is None:
            code = compile(source, "<grader helper>", "exec")
            if len(self.helpers) < self.MAX_HELPERS:
                self.helpers[source] = code
        return code

    def resolve(self, target: dict):
        if "name" in target:
            if target["name"] not in self.namespace:
                raise NameError(f"name '{target['name']}' is not defined in your notebook")
            obj = self.namespace[target["name"]]
        else:
            obj = self.from_handle(protocol.Handle(target["id"], ""))
        return getattr(obj, target["attr"]) if "attr" in target else obj

    def run_cell(self, index: int, source: str) -> dict:
        """One notebook cell in the shared namespace; printed output is
        captured (capped) and returned with the cell's error, if any."""
        out = CappedText()
        error = None
        start = time.perf_counter()
        real_stdout, real_stderr = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = out
        try:
            exec(compile(source, f"<cell {index}>", "exec"), self.namespace)
        except BaseException as exc:
            error = error_report(exc)
            error["traceback"] = "".join(
                traceback.format_exception(exc)[1:])[-4000:]  # drop our own frame
        finally:
            # output printed later, while tests call the student's functions, is discarded
            sys.stdout, sys.stderr = real_stdout, real_stderr
        return {"error": error, "seconds": time.perf_counter() - start, "output": out.text()}
