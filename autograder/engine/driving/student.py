"""What a hidden test holds: a proxy for the student's namespace in a worker.

    student.causal_mask(5)                 call a function the notebook defined
    attn = student.TinySelfAttn(32, 4)     objects that are not plain data come
    attn.load_state_dict(ref_state)        back as RemoteObject handles: attribute
    attn(x)                                access, method calls and calls work
    student.new("torch.nn.Linear", 3, 4)   construct a library object in the worker
    student.build(SOURCE, "make", ...)     run trusted probe code in the worker
    student.callback("f", func)            lend a grader function for this test
    student.seed(0)                        seed random/numpy/torch in the worker
    student.define("f", handle)            bind a name in the student's namespace
    student.lend("f", func)                callback and define in one request, if the notebook has f
    student.shared(key, compute)           compute() once per worker: answers several tests read
    student.twin(model, make)              make() builds model's twin here, for diagnoses
    student.observe(observer)              report what the test does (engine/observing.py)
    student.at_most(nbytes).f(x)           f's answer may carry at most nbytes of arrays
    student.repeat(n).f(x, rng)            f called n times in the worker, in one round
                                           trip: the list of its n answers
    student.allowing(30).f(n)              f's call may take up to 30 s (a large answer
                                           asked on purpose), not the configured limit
    student.read(step, "calls", at_most=n) state read back from an object the test made:
                                           more than n values is the student's error (Fail)

Arguments and results are plain data (numbers, strings, lists, tuples, dicts,
numpy arrays, torch tensors) or handles. The student's exceptions arrive as
StudentError; a hang or crash as StudentTimeout/WorkerDied. An answer that is
not a well-formed reply (a value that does not decode, an error report of the
wrong shape) kills the worker: WorkerDied.

Anything sent into the worker belongs to the student: never build() code
that implements a graded stub; lend a function with callback() instead.
"""
from __future__ import annotations

from typing import Callable

from autograder import protocol
from autograder.engine.driving import describe, readback
from autograder.engine.driving.fail import Fail
from autograder.engine.intake import untrusted
from autograder.engine.isolation.callbacks import MAX_ARG_BYTES, MAX_CALLS, Callbacks
from autograder.engine.isolation.workers import WorkerConnection, WorkerDied, WorkerTimeout
from autograder.engine.observing import NOBODY, UNREAD, Observer


class StudentError(Exception):
    """The student's code raised. Carries only names and the message, cleaned
    (engine.intake.untrusted) as they arrive: they are the student's text."""

    MAX_MRO = 64
    """Base classes kept for is_a (a real hierarchy is far shorter)."""

    def __init__(self, report: dict, call: str):
        mro = report.get("mro")
        self.type_name = untrusted.name(report.get("type", "Exception"))
        self.type_names = [untrusted.name(n) for n in
                           (mro[:self.MAX_MRO] if isinstance(mro, list) else [])]
        self.type_names = self.type_names or [self.type_name]
        self.message = untrusted.text(report.get("message", ""), 500)
        self.call = call
        super().__init__(f"{call} raised {self.type_name}: {self.message}")

    def is_a(self, exc_type: type) -> bool:
        return exc_type.__name__ in self.type_names


class StudentTimeout(WorkerTimeout):
    pass


class Student:
    """The student's notebook namespace, reached through one worker, for one test
    (the functions it lends live as long as this object)."""

    MAX_REPEAT = 100_000
    MAX_CALL_SECONDS = 120.0
    """The most a test may allow one call (allowing()): a hostile submission's worst
    case per such call, beside the configured call_seconds."""

    def __init__(self, conn: WorkerConnection, call_seconds: float,
                 max_reply: int = protocol.MAX_BUFFERS, callbacks: Callbacks | None = None,
                 times: int | None = None, pending: dict | None = None,
                 observer: Observer = NOBODY, max_values: int | None = None):
        self._conn = conn
        self._max_values = max_values  # of an answer, counted before decoding (read())
        self._call_seconds = call_seconds
        self._max_reply = max_reply
        self._callbacks = Callbacks() if callbacks is None else callbacks
        self._times = times
        self._pending = {} if pending is None else pending  # shared by derived Students
        self._observer = observer  # told what the test does, shared likewise

    def _derive(self, max_reply: int, times: int | None,
                call_seconds: float | None = None, max_values: int | None = None) -> "Student":
        return Student(self._conn, self._call_seconds if call_seconds is None else call_seconds,
                       max_reply, self._callbacks, times, self._pending, self._observer,
                       max_values)

    def read(self, handle: "RemoteObject", attr: str, *, at_most: int):
        """handle.attr, state the student's code left on an object this test made (a
        step function's record of its calls), holding at most `at_most` values
        (readback.check: every number, string, list... at every depth). Declare a
        few times what an honest answer holds (the reference's): a larger answer
        fails the test (Fail) before its values are decoded, so no test code walks
        a record a submission made huge on purpose."""
        if not isinstance(handle, RemoteObject):
            raise TypeError(f"read() takes a handle, not a {type(handle).__name__}")
        if isinstance(at_most, bool) or not isinstance(at_most, int) or at_most < 1:
            raise ValueError("read(at_most=n) takes a positive int")
        view = RemoteObject.__new__(RemoteObject)
        view.__dict__.update(handle.__dict__)
        view._student = self._derive(self._max_reply, self._times, self._call_seconds, at_most)
        return getattr(view, attr)

    def observe(self, observer: Observer) -> None:
        """Report what this test does to `observer` (the diagnoses' Recorder keeps the
        calls of the test's question, for a diagnosis if the test fails)."""
        self._observer = observer

    def record_answer(self, question: str, kwargs: dict, answer) -> None:
        """Report an answer the test read rather than called for (an exam's short
        answer, a notebook global) as an answer of `question` on `kwargs` (the numbers
        it is about): the diagnoses of a test recording that question replay on them."""
        self._observer.answer_read(question, kwargs, answer)

    def twin(self, handle: "RemoteObject", make: Callable, *, read: Callable | None = None,
             seen=UNREAD) -> "RemoteObject":
        """Declare the grader's exact twin of `handle`, an object this test made in the
        worker from trusted code (build(), new()): make() builds the same object here
        (from the same code and arguments; cache it with @once). If the test fails, the
        diagnoses replay its calls with the twin in the handle's place (not a copy:
        a mistake must not modify it); a test that passes never calls make(). For an
        object whose state the test reads back after the calls (a step function's
        record of its calls): read(twin) gives that state from a twin, seen is what the
        test read from the handle; make() must then give a fresh twin each time.
        Returns the handle; does nothing when the test's calls are not recorded."""
        if not isinstance(handle, RemoteObject):
            raise TypeError(f"twin() takes a handle, not a {type(handle).__name__}")
        self._observer.twin(handle, make, read, seen)
        return handle

    def at_most(self, nbytes: int) -> "Student":
        """The same student, whose answers may carry at most nbytes of array data
        (for calls whose answer has a known shape; more kills the worker)."""
        return self._derive(nbytes, self._times, self._call_seconds)

    def allowing(self, seconds: float) -> "Student":
        """The same student, whose calls may each take up to `seconds` rather than the
        configured call_seconds (never less, at most MAX_CALL_SECONDS): for a test that
        asks on purpose for a large answer, which a correct but slow solution (a loop
        in Python, entry by entry) takes long to give. Beyond it a call times out as
        any other (StudentTimeout)."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                or not 0 < seconds <= self.MAX_CALL_SECONDS:
            raise ValueError(f"allowing(seconds) takes a number in (0, {self.MAX_CALL_SECONDS:g}]")
        return self._derive(self._max_reply, self._times, max(float(seconds), self._call_seconds))

    def repeat(self, n: int) -> "Student":
        """The same student, whose function calls (student.f(...), handle(...))
        run n times in the worker in one request and answer the list of the n
        results: a sampling loop costs one round trip instead of n. The calls
        are the ones a loop of n calls would make, on the same arguments (a
        generator handle advances from one to the next); the first that raises
        ends them (StudentError). All n share one call's time limit. A recorded
        stub's n calls are kept as n calls (its diagnoses' signs count the draws)."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= self.MAX_REPEAT:
            raise ValueError(f"repeat(n) takes an int from 1 to {self.MAX_REPEAT}")
        return self._derive(self._max_reply, n, self._call_seconds)

    def callback(self, name: str, func, *, max_calls: int = MAX_CALLS,
                 max_arg_bytes: int = MAX_ARG_BYTES) -> "RemoteObject":
        """Lend `func` to the worker for the rest of this test; returns the worker's
        proxy for it (bind it with define(), or pass it as an argument). Calls
        send their arguments here and get func's result: func must check them
        (they are hostile), bound its work from their shapes before doing any,
        answer only inputs this test made (never one the student's code chose)
        and never call the student. See engine/isolation/callbacks.py."""
        self._callbacks.lend(name, func, max_calls, max_arg_bytes)
        return self._request({"op": protocol.CALLBACK, "name": name}, f"lend {name}")

    def __getattr__(self, name: str) -> "RemoteFunction":
        if name.startswith("_"):
            raise AttributeError(name)
        return RemoteFunction(self, {"name": name}, name)

    def value(self, name: str):
        """The value of a global of the notebook (plain data or a handle)."""
        return self._request({"op": protocol.GET, "name": name}, name)

    def has(self, name: str) -> bool:
        return self._request({"op": protocol.HAS, "name": name}, name)

    def seed(self, seed: int) -> None:
        self._request({"op": protocol.SEED, "seed": int(seed)}, "seed")
        self._observer.reseeded(int(seed))

    def new(self, path: str, *args, **kwargs):
        made = self._request({"op": protocol.NEW, "path": path}, path, args, kwargs)
        if isinstance(made, RemoteObject):
            self._observer.made(made, path, args, kwargs)
        return made

    def build(self, source: str, name: str, *args, **kwargs):
        return self._request({"op": protocol.BUILD, "source": source, "name": name},
                             name, args, kwargs)

    def define(self, name: str, value) -> None:
        """Bind a name in the student's namespace (to a handle from callback() or build())."""
        self._request({"op": protocol.DEFINE, "name": name}, f"define {name}", (value,), {})

    def lend(self, name: str, func, *, max_calls: int = MAX_CALLS,
             max_arg_bytes: int = MAX_ARG_BYTES) -> bool:
        """In place of the notebook's own `name`, for the rest of this test, `func`
        lent as callback() lends it: has(), callback() and define() in one request.
        False, and nothing lent, where the notebook does not define `name`."""
        bound = self._request({"op": protocol.DEFINE, "name": name, "lend": True},
                              f"lend {name}") is True
        if bound:  # registered once bound: nothing calls it before this answer
            self._callbacks.lend(name, func, max_calls, max_arg_bytes)
        return bound

    def list(self, obj: "RemoteObject") -> list:
        header = {"op": protocol.LIST, "id": obj._handle.id}
        return self._observed(self._observer.stepping(obj, "list", (), {}, None), header,
                              "list(...)")

    def shared(self, key, compute):
        """compute(), once per worker for each key: for tests that read the same
        answers (the same calls on the same inputs, such as one sample that
        several statistical tests judge, each on its own property). A compute()
        that raises keeps nothing. Plain data only: a test's handles are gone
        once the next test begins."""
        memo, observer = self._conn.memo, self._observer
        kept = ("observed", key)  # what compute() was seen doing, for a later test's observer
        if key not in memo:
            mark = observer.mark()
            memo[key] = compute()
            memo[kept] = observer.since(mark)
        else:  # this test read those answers: what made them is its own too
            observer.again(memo.get(kept))
        return memo[key]

    def reset(self, seed: int) -> None:
        """Before a test: drop the handles of the tests before (the worker no
        longer holds their objects) and seed as seed() does. Sent with the
        test's first request, which the worker answers after the reset (no
        round trip of its own; a test that sends nothing leaves it to the next)."""
        self._pending["reset"] = int(seed)
        self._observer.reset(int(seed))

    def _observed(self, token, header: dict, call, args=None, kwargs=None):
        """The request, its outcome reported with `token` (the observer's for it;
        None: not observed)."""
        if token is None:
            return self._request(header, call, args, kwargs)
        try:
            answer = self._request(header, call, args, kwargs, token=token)
        except StudentError as err:
            self._observer.raised(token, err.type_names, err.message)
            raise
        except BaseException:
            self._observer.broke(token)
            raise
        self._observer.answered(token, answer)
        return answer

    def _request(self, header: dict, call: str | Callable[[], str], args=None, kwargs=None,
                 timeout=None, token=None):
        """call: the request's description for messages, or a function that gives
        it (described only when a message needs it; most requests need none).
        token: the observer's for this request, told of each handle it answers."""
        named = call if callable(call) else lambda: call
        buffers: list[bytes] = []
        if "reset" in self._pending:
            header = dict(header, reset=self._pending.pop("reset"))
        if args is not None:
            enc = protocol.Encoder(self._unplain)
            header = dict(header, args=enc.encode(tuple(args)), kwargs=enc.encode(dict(kwargs)))
            buffers = enc.buffers
        try:
            reply, bufs = self._conn.request(header, buffers, timeout or self._call_seconds,
                                             self._max_reply, self._callbacks)
        except WorkerTimeout:
            raise StudentTimeout(f"{named()} did not finish within "
                                 f"{timeout or self._call_seconds:g} s") from None
        except WorkerDied:
            raise WorkerDied(f"the notebook's process stopped during {named()}"
                             + self._conn.why_stopped()) from None
        try:
            if "error" in reply:
                raise StudentError(_error_report(reply["error"]), named())
            if self._max_values is not None:
                readback.check(reply["ok"], self._max_values)
            owner = self if self._times is None else self._derive(self._max_reply, None)
            return protocol.unpack(reply["ok"], bufs, lambda h: self._held(RemoteObject(owner, h),
                                                                           token))
        except readback.TooLarge as exc:
            raise Fail(f"{named()} handed back {exc}, many times what a correct answer "
                       "leaves; the grader does not read it") from None
        except (KeyError, protocol.ProtocolError):
            self._conn.kill()
            raise WorkerDied(f"the notebook's process sent a malformed answer to {named()} "
                             "and was stopped") from None

    def _held(self, handle: "RemoteObject", token) -> "RemoteObject":
        if token is not None:
            self._observer.holds(token, handle)
        return handle

    def _unplain(self, value):
        """A handle sent as an argument (the student's code may change its object)."""
        if isinstance(value, RemoteObject):
            self._observer.sent(value)
            return {"t": "handle", "id": value._handle.id, "type": value._handle.type_name}
        raise TypeError(f"cannot send a {type(value).__name__} to the worker")


def _error_report(report) -> dict:
    """The worker's report of the student's exception, checked for shape."""
    if not (isinstance(report, dict) and isinstance(report.get("type", ""), str)
            and isinstance(report.get("message", ""), str)
            and isinstance(report.get("mro", []), list)
            and all(isinstance(n, str) for n in report.get("mro", []))):
        raise protocol.ProtocolError("malformed error report")
    return report


class RemoteFunction:
    """A callable living in the worker (a function, a class, a bound method)."""

    def __init__(self, student: Student, target: dict, label: str):
        self._student, self._target, self._label = student, target, label

    def __call__(self, *args, **kwargs):
        student, times = self._student, self._student._times
        header = {"op": protocol.CALL, "target": self._target}
        if times is not None:
            header = dict(header, times=times)
        described = lambda: describe.call(self._label, args, kwargs)
        token = student._observer.stepping(self, "call", args, kwargs, times) \
            if "id" in self._target else \
            student._observer.calling(self._target["name"], args, kwargs, times)
        return student._observed(token, header, described, args, kwargs)

    def __repr__(self):
        return f"<student's {self._label}>"


class RemoteObject(RemoteFunction):
    """A handle to an object that stays in the worker."""

    observed = None
    """What an observer keeps of this handle (engine/observing.py); never read here."""

    def __init__(self, student: Student, handle: protocol.Handle):
        handle = protocol.Handle(handle.id, untrusted.name(handle.type_name))  # the student's name
        super().__init__(student, {"id": handle.id}, handle.type_name)
        self._handle = handle

    @property
    def type_name(self) -> str:
        return self._handle.type_name

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        student = self._student
        header = {"op": protocol.GETATTR, "id": self._handle.id, "attr": attr}
        token = student._observer.stepping(self, "getattr", (attr,), {}, None)
        value = student._observed(token, header, f"{self._label}.{attr}")
        if isinstance(value, RemoteObject):  # a bound method: named as the test called it
            value._label = f"{self._label}.{attr}"
        return value
