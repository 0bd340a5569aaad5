"""Diagnoses: a failing test's answers matched against known mistakes.

An assignment may declare, in autograder/<id>/diagnoses.py, a list DIAGNOSES of
Diagnosis entries: a typical mistake of one stub, as a function with the stub's
signature that makes it (author's code, run only here in the trusted process,
never sent to the worker), a one-line explanation for the student, and the
notebook section to reread.

While a test of a diagnosed question runs, the Student records every call of
that question's stub the test makes (arguments and answer, or the exception's
type; see Calls). Only when the test fails on the answer are the mistakes
replayed on copies of the same arguments: a mistake matches when it gives every
recorded answer (same types, dtypes and shapes, values within its tolerance,
the same exception type, and a message of the same class: see Raised). The test
is a function of those answers, so a mistake that matches fails the test in the
same way; it must also differ from the reference somewhere on those inputs (else
the test's inputs do not reveal it). Feedback names the mistake only when exactly
one matches (or one whose mistakes every other match makes too: combined()) and no
stand-in (a stub nobody wrote) explains the answers as well
(engine/driving/evidence.py); a test that passes costs one list append per call.

A handle among the arguments (an object in the worker) is replayed through its
twin: the grader-side object the test declares for it (Student.twin), built
here from the same trusted code (a model, a step function), on which the
mistake runs in its place. A twin is not copied: mistakes must not modify it,
unless it has a state the test read back (then make() gives a fresh one for
each replay, and the mistake must leave it in the state the test read). A
handle without a twin (a generator) cannot be replayed: its diagnoses are signs
read from the recorded answers instead (Diagnosis.replay False).

A stub whose answer is a handle (a class: an nn.Module the test then loads,
reads and calls) is recorded with what the test does to that handle: each
method call, attribute read and list() of it, or of a handle got from it, is a
Step of the same Calls, in order, with its answer, and so are the seeds the
test gave the worker (Calls.seed, Calls.seeds: random initial weights are
answers too). Its mistake is a class with the stub's signature, driven the
same way on copies of the same arguments under the same seeds (_drive), and
compared answer by answer as the protocol delivers them: two handles are the
same answer, a handle and plain data are not. A handle sent anywhere else (as
an argument, to a probe) may change unseen: that spoils the record. Such a
drive builds a model per mistake; its answers are kept for the batch (Driven),
keyed by a digest of the inputs, which every submission failing the test shares.
A repeat(n) of the stub (a sampler's draws) is kept as one Repeated entry, made
its n calls only when a diagnosis reads them.

Nothing here changes a score: the diagnosis is TestResult.diagnosis, shown
beside the output by the feedback and by results.json's test output.
"""
from __future__ import annotations

import copy
import hashlib
import importlib
import importlib.util
import itertools
import linecache
import logging
import numbers
import os
import re
import threading
from dataclasses import dataclass
from typing import Callable

import numpy as np

from autograder import protocol
from autograder.engine.intake import untrusted
from autograder.engine import numerics
from autograder.engine.numerics import torch  # None without torch (numpy-only installations)

log = logging.getLogger(__name__)
MAX_CALLS = 10_000
"""Calls recorded per test (a sampling loop of more is not replayed: no diagnosis)."""
MAX_ELEMENTS = 1 << 19
"""Array entries the recorded answers of one test may hold in all: replaying every
mistake on larger inputs (a table of 100,000 positions) would cost a failing test
tens of milliseconds; such a test is not diagnosed (the smaller ones of its question are)."""
MAX_SIGN_ELEMENTS = 1 << 21
"""The same for a question whose diagnoses are all signs (nothing replayed): a sampler's
shares are read over a few large calls, a pass over them costs a millisecond or two."""


@dataclass(frozen=True)
class Diagnosis:
    """A known mistake in `question` (a stub's name) and what to tell the student."""

    question: str
    mistake: Callable
    """The stub written with the mistake: same signature, deterministic (a class
    stub's is a class, whose random weights draw as the student's would)."""
    explanation: str
    """One line for the student: what the mistake is and why it is wrong, never
    an expected value."""
    section: str
    """The notebook section to reread, as its heading reads ("1.2 Scaled ...")."""
    rtol: float = 1e-4
    atol: float = 1e-5
    """How close the student's answers must be to the mistake's (float values)."""
    replay: bool = True
    """False for a stub whose arguments hold a handle without a twin (a generator):
    `mistake` is then a sign, shows(calls) -> bool over the test's recorded calls
    of the stub ((args, kwargs, answer or Raised) tuples, handles included, never
    to be modified; no Steps), true when the answers show the mistake and no
    correct stub's could (an invariant it breaks, or a share no correct sampler
    comes near). Nothing is replayed: the reference's answers are not needed."""
    max_elements: int | None = None
    """Array entries a test's recorded answers may hold in all for its question to be
    diagnosed, when lower than the default (MAX_ELEMENTS, or MAX_SIGN_ELEMENTS for
    signs): for a stub whose answers cost more per entry to replay (a table of sines)."""

    parts: tuple["Diagnosis", ...] = ()
    """A combined diagnosis's declared mistakes (combined()), each named on a line of its own."""

    def text(self) -> str:
        """What feedback shows: one line per mistake ("This looks like: ...")."""
        if self.parts:
            return "\n".join(p.text() for p in self.parts)
        return f"This looks like: {self.explanation} (see {self.section})"


def combined(mistake: Callable, *parts: Diagnosis) -> Diagnosis:
    """The diagnosis of an answer that makes several declared mistakes of one question at
    once (a student's layer that is post-norm and uses ReLU): `mistake` makes them all,
    the feedback names each. Matched as any replay is; a single part's replay does not
    give such an answer, so without it nothing would be said."""
    if len(parts) < 2 or len({p.question for p in parts}) != 1 or \
            any(p.parts or not p.replay for p in parts):
        raise TypeError("combined() takes two or more replayed diagnoses of one question")
    return Diagnosis(parts[0].question, mistake, "; ".join(p.explanation for p in parts),
                     parts[0].section, rtol=min(p.rtol for p in parts),
                     atol=min(p.atol for p in parts), parts=parts)


class Raised:
    """A recorded call that raised: the exception's type names (most derived first) and
    its message, as the student's arrives (engine/intake/untrusted.text); None when not
    known. `free`: the message is the author's own text (a mistake's `raise` statement,
    such as a ValueError for an argument it refuses), which any message of the same
    type matches; other messages (a library's, Python's) are evidence and must agree."""

    def __init__(self, type_names, message: str | None = None, free: bool = False):
        self.type_names = list(type_names)
        self.message = message
        self.free = free

    @classmethod
    def of(cls, exc: BaseException, renamed: tuple[str, str] | None = None) -> "Raised":
        """A replay's exception, its message as the worker would report it (the first
        2000 characters, cleaned) with `renamed` (a mistake's class name, the stub's)
        swapped, so that torch's "loading state_dict for <class>" reads the same."""
        message = str(exc)[:2000]
        if renamed and renamed[0]:
            message = re.sub(rf"\b{re.escape(renamed[0])}\b", renamed[1], message)
        return cls((c.__name__ for c in type(exc).__mro__),
                   untrusted.text(message, MESSAGE_CHARS), _raised_here(exc))

    def same(self, other: "Raised") -> bool:
        """The same exception type, and messages of one class: equal but for memory
        addresses, unless either is free text or unknown."""
        if self.type_names[0] != other.type_names[0]:
            return False
        if self.free or other.free or self.message is None or other.message is None:
            return True
        return _ADDRESS.sub("0x", self.message) == _ADDRESS.sub("0x", other.message)


MESSAGE_CHARS = 500
"""The characters of an exception's message the grader keeps (StudentError's)."""
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _raised_here(exc: BaseException) -> bool:
    """Whether a `raise` statement of the autograder package (an assignment's mistake or
    reference) raised `exc`: its message is then the author's own words."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    code = tb.tb_frame.f_code
    if not os.path.abspath(code.co_filename).startswith(_PACKAGE + os.sep):
        return False
    return linecache.getline(code.co_filename, tb.tb_lineno).lstrip().startswith("raise")


class Unreplayable(Exception):
    """A recorded call that cannot be replayed here (its arguments hold a handle
    without a twin, or a twin could not be made)."""


UNREAD = object()  # a twin without state read back


@dataclass(frozen=True)
class Twin:
    """The grader-side twin of a handle a test made (see Student.twin)."""

    handle: object
    """The handle itself: kept, so that its id() names no other object."""
    make: Callable
    """make() -> the twin, called for each replay (of a mistake, of the reference) only."""
    read: Callable | None = None
    """read(twin) -> the state the test read from the handle after its calls, or None."""
    seen: object = UNREAD
    """That state, as the test read it from the worker."""


class Step(tuple):
    """A request the test made on a handle a recorded call answered: (args, kwargs,
    answer or Raised) as a call's, with `on`, the index in Calls.calls of the entry
    that answered the handle, and `op`: "call" (the handle called: a bound method,
    a module's forward), "getattr" (args: the attribute's name) or "list"."""

    on: int
    op: str

    def __new__(cls, on: int, op: str, args, kwargs, answer):
        step = super().__new__(cls, (args, kwargs, answer))
        step.on, step.op = on, op
        return step


class Calls:
    """The calls of one stub a test made, in order: (args, kwargs, answer or Raised),
    and the Steps on the handles they answered. A call past MAX_CALLS, or whose
    answer never came (a timeout), spoils the record."""

    def __init__(self, name: str, max_elements: int = MAX_ELEMENTS):
        self.name = name
        self.max_elements = max_elements
        self.calls: list[tuple] = []
        self.count = 0
        """Calls kept, a Repeated entry's n included (at most MAX_CALLS)."""
        self.spoiled = False
        self.elements = 0
        self.driven = False
        """Whether a recorded answer holds a handle (its replay is _drive's)."""
        self.answered = False
        """Whether a call of the stub answered (did not raise)."""
        self.answered_before = False
        """Whether one did in an earlier test of the submission: the stub is then no
        stand-in raising everywhere (engine/driving/evidence.py)."""
        self.seed: int | None = None
        """The seed the worker's RNGs got as the test began (Student.reset)."""
        self.seeds: list[tuple[int, int]] = []
        """(len(calls) then, seed) of each student.seed() during the test."""
        self.twins: dict[int, Twin] = {}  # id(handle) -> its twin
        self._own: tuple[int, tuple] = (0, ())
        self.digest: tuple[int, bytes | None] = (0, None)
        """(len(calls) then, the digest of their inputs): Driven's key (None: not kept)."""

    def own(self) -> tuple:
        """The stub's own calls, without the Steps (what a sign reads): built once for
        all the signs of a question (a sampler's thousands of recorded draws)."""
        if self._own[0] != len(self.calls):
            self._own = (len(self.calls), tuple(c for c in self.calls if type(c) is not Step))
        return self._own[1]

    def twin(self, handle, make: Callable, read: Callable | None = None,
             seen=UNREAD) -> None:
        if (read is None) != (seen is UNREAD):
            raise TypeError("a twin's state needs both read and seen")
        self.twins[id(handle)] = Twin(handle, make, read, seen)

    def add(self, args, kwargs, answer) -> None:
        self.answered = self.answered or not isinstance(answer, Raised)
        self._keep((args, kwargs, answer), answer)

    def add_repeated(self, args, kwargs, answers: list) -> None:
        """The answers of n calls on the same arguments (Student.repeat), as n calls:
        ids (a sampler's draws, thousands a test) kept as one Repeated entry, made n
        calls only when the test fails (expand)."""
        if set(map(type, answers)) != {int}:
            for answer in answers:
                self.add(args, kwargs, answer)
            return
        if self.count + len(answers) > MAX_CALLS:  # ids: no array entries to count
            self.spoiled = True
        self.answered = True
        if not self.spoiled:
            self.calls.append(Repeated((args, kwargs, answers)))
            self.count += len(answers)

    def add_entries(self, entries) -> None:
        """Entries of another record (calls and Repeated), kept as they were."""
        for entry in entries:
            (self.add_repeated if type(entry) is Repeated else self.add)(*entry)

    def expand(self) -> None:
        """Each Repeated entry made its n calls, before a diagnosis reads them. A
        driven record's Steps name entries by index: one with a repeat is spoiled."""
        if not any(type(c) is Repeated for c in self.calls):
            return
        if self.driven:
            self.spoiled = True
            return
        calls: list[tuple] = []
        for c in self.calls:
            if type(c) is Repeated:
                args, kwargs, answers = c
                calls.extend(zip(itertools.repeat(args), itertools.repeat(kwargs), answers))
            else:
                calls.append(c)
        self.calls = calls

    def add_step(self, on: int, op: str, args, kwargs, answer) -> None:
        self._keep(Step(on, op, args, kwargs, answer), answer)

    def reseeded(self, seed: int) -> None:
        if len(self.seeds) >= MAX_CALLS:
            self.spoiled = True
        elif not self.spoiled:
            self.seeds.append((len(self.calls), seed))

    def _keep(self, entry: tuple, answer) -> None:
        self.elements += _elements(answer)
        if self.count >= MAX_CALLS or self.elements > self.max_elements:
            self.spoiled = True
        if not self.spoiled:
            self.calls.append(entry)
            self.count += 1


class Repeated(tuple):
    """(args, kwargs, answers) of n calls on the same arguments (Calls.add_repeated)."""


def _elements(value) -> int:
    """Array entries in an answer (its arrays and tensors, in tuples and lists)."""
    if isinstance(value, (tuple, list)):
        return sum(_elements(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.size
    if torch is not None and isinstance(value, torch.Tensor):
        return value.numel()
    return 0


def record_for(question: str, candidates: tuple[Diagnosis, ...]) -> Calls:
    """The record of a test of `question`: signs alone allow larger answers (no replay),
    a candidate's own max_elements smaller ones (the least of them holds)."""
    signs_only = not any(d.replay for d in candidates)
    default = MAX_SIGN_ELEMENTS if signs_only else MAX_ELEMENTS
    return Calls(question, min([default] + [d.max_elements for d in candidates
                                            if d.max_elements is not None]))


def load(package: str, reference) -> dict[str, tuple[Diagnosis, ...]]:
    """{question: its diagnoses} of the assignment package (empty without diagnoses.py);
    each question must be a stub of the `reference` module (its answers are compared)."""
    if importlib.util.find_spec(f"{package}.diagnoses") is None:
        return {}
    module = importlib.import_module(f"{package}.diagnoses")
    found: dict[str, list[Diagnosis]] = {}
    for d in getattr(module, "DIAGNOSES", ()):
        if not isinstance(d, Diagnosis):
            raise TypeError(f"{package}.diagnoses: DIAGNOSES holds a {type(d).__name__}")
        if not callable(getattr(reference, d.question, None)):
            raise TypeError(f"{package}.diagnoses: {d.question} is not a stub of the reference")
        found.setdefault(d.question, []).append(d)
    return {q: tuple(ds) for q, ds in found.items()}


def _matches(d: Diagnosis, record: Calls, reference: Callable, reference_run: list,
             mistaken_of: dict) -> bool:
    """Call by call, stopping at the first answer the mistake does not give (most
    mistakes differ on a test's first, small input: the large ones are not replayed);
    then the states of the twins the test read back. A replayed mistake's answers (and
    the states it left) are kept in mistaken_of[id(d)]."""
    if not d.replay:
        try:  # the stub's own calls: a sign reads answers, not what was done to them
            with quiet_numpy():
                return bool(d.mistake(record.own()))
        except Exception:  # the author's sign broke on an answer it did not foresee
            log.warning("diagnosis of %s: %s broke", d.question, d.mistake.__name__,
                        exc_info=True)
            return False
    same = lambda a, b: _same(a, b, d.rtol, d.atol)
    if record.driven:
        return _matches_driven(d, record, reference, reference_run, same, mistaken_of)
    twins = _made(record)
    mistaken = []
    try:
        for args, kwargs, answer in record.calls:
            mistaken.append(_replay(d.mistake, args, kwargs, twins,
                                    (d.mistake.__name__, record.name)))
            if not same(answer, mistaken[-1]):
                return False
        states = _states(record, twins)
        if not all(same(t.seen, s) for t, s in zip(_stateful(record), states)):
            return False
    except Unreplayable:
        raise
    except Exception:  # the author's mistake function broke outside a call
        log.warning("diagnosis of %s: %s broke", d.question, d.mistake.__name__,
                    exc_info=True)
        return False
    if not reference_run:
        twins = _made(record)
        answers = [_replay(reference, args, kwargs, twins) for args, kwargs, _ in record.calls]
        try:
            reference_run.append((answers, _states(record, twins)))
        except Exception as exc:  # the test's read broke on the reference's twin
            log.warning("diagnosis of %s: a twin's state could not be read", record.name,
                        exc_info=True)
            raise Unreplayable("state") from exc
    answers, reference_states = reference_run[0]
    mistaken_of[id(d)] = (mistaken, states)
    return not (all(same(r, m) for r, m in zip(answers, mistaken))
                and all(same(r, m) for r, m in zip(reference_states, states)))


def _matches_driven(d: Diagnosis, record: Calls, reference: Callable, reference_run: list,
                    same: Callable, mistaken_of: dict) -> bool:
    """_matches for a record of a stub whose answers hold handles: the mistake driven
    as the test drove the student's objects, stopping at its first answer that is
    not the student's (DRIVEN keeps what was driven, for the next submission)."""
    if record.digest[0] != len(record.calls):  # once per record, not per mistake
        record.digest = (len(record.calls), _inputs_digest(record))
    key = record.digest[1]
    student = [entry[2] for entry in record.calls]
    try:
        mistaken = DRIVEN.answers(d.mistake, key, record, lambda i, m: same(student[i], m))
    except Unreplayable:
        raise
    except Exception:  # the author's mistake broke outside a call
        log.warning("diagnosis of %s: %s broke", d.question, d.mistake.__name__, exc_info=True)
        return False
    if mistaken is None:
        return False
    if not reference_run:
        reference_run.append(DRIVEN.answers(reference, key, record, lambda i, m: True))
    mistaken_of[id(d)] = mistaken
    return not all(same(r, m) for r, m in zip(reference_run[0], mistaken))


class Driven:
    """The answers of mistakes (and references) driven on a test's inputs, kept for
    the rest of the batch: a class stub's replay builds and runs a model per mistake
    (up to about 0.3 s for hw4's 61), and every submission failing that test was driven
    with the same inputs (the test's weights and ids), so that only the first pays.
    A stub's answers are a function of its inputs (the calls' arguments, the Steps,
    the seeds): the key is their digest, beside the stub itself (held, so that its
    id names no other object). A drive that stopped at a student's answer it does not
    give is kept as far as it went, and driven on only for a student whose answers
    agree that far. At most MAX_ELEMENTS entries of answers are kept, the oldest
    dropped first."""

    MAX_ELEMENTS = 1 << 22

    def __init__(self):
        self._kept: dict[tuple, tuple] = {}  # (id(stub), digest) -> (stub, answers, whole, size)
        self._elements = 0
        self._lock = threading.Lock()

    def answers(self, stub: Callable, digest: bytes | None, record: Calls,
                accept: Callable[[int, object], bool]) -> list | None:
        """The stub's answers, None at the first accept(index, answer) refuses."""
        key = (id(stub), digest)
        with self._lock:
            kept = self._kept.get(key) if digest else None
        if kept is not None and kept[0] is stub:
            _, answers, whole, _ = kept
            if not all(accept(i, a) for i, a in enumerate(answers)):
                return None
            if whole:
                return answers
        answers, whole = _drive(stub, record, accept)
        if digest:
            self._keep(key, (stub, answers, whole, _elements(answers)))
        return answers if whole else None

    def _keep(self, key: tuple, entry: tuple) -> None:
        with self._lock:
            old = self._kept.pop(key, None)
            self._elements += entry[3] - (old[3] if old else 0)
            self._kept[key] = entry
            while self._elements > self.MAX_ELEMENTS and len(self._kept) > 1:
                self._elements -= self._kept.pop(next(iter(self._kept)))[3]


DRIVEN = Driven()


def _inputs_digest(record: Calls) -> bytes | None:
    """A digest of what drives a replay of the record (every entry's kind, arguments
    and target, the seeds), None when an argument is of a type not digested here
    (the replay is then not kept)."""
    h = hashlib.blake2b(digest_size=20)
    h.update(repr((record.seed, record.seeds)).encode())
    try:
        for entry in record.calls:
            kind = (entry.on, entry.op) if type(entry) is Step else ("call",)
            h.update(repr(kind).encode())
            _digest(entry[0], h), _digest(entry[1], h)
    except TypeError:
        return None
    return h.digest()


def _digest(value, h) -> None:
    """Feeds `value` (plain data: what a replay's arguments are) to the hash `h`,
    its types, dtypes and shapes with its contents; TypeError for anything else."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        h.update(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, (tuple, list)):
        h.update(f"{type(value).__name__}[{len(value)}".encode())
        for v in value:
            _digest(v, h)
        h.update(b"]")
    elif isinstance(value, dict):
        h.update(f"dict[{len(value)}".encode())
        for k, v in value.items():
            _digest(k, h), _digest(v, h)
        h.update(b"]")
    elif isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        h.update(f"ndarray:{value.dtype.str}:{value.shape};".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif torch is not None and type(value) is torch.Tensor and value.layout == torch.strided:
        t = value.detach().cpu().contiguous()
        h.update(f"tensor:{t.dtype}:{tuple(t.shape)}:{value.requires_grad};".encode())
        h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes())  # its bytes, any dtype
    else:
        raise TypeError(type(value).__name__)


def _drive(stub: Callable, record: Calls, accept: Callable) -> tuple[list, bool]:
    """The answers of `stub` (a class, or a function answering objects) driven by
    the recorded calls and Steps, as the worker would deliver them (_delivered),
    under the worker's seeds, and whether they are all there: the drive stops at
    the first answer accept(index, answer) refuses. Its objects live here only:
    each Step acts on the object its `on` entry answered."""
    objects: list = []
    answers: list = []
    seeds = dict(record.seeds)  # of two seeds before one call, the call saw the last
    renamed = (getattr(stub, "__name__", ""), record.name)  # in torch's messages
    with numerics.seeded(0 if record.seed is None else record.seed):
        for i, entry in enumerate(record.calls):
            if i in seeds:
                numerics.seed_global_rngs(seeds[i])
            objects.append(_step(stub, objects, entry, renamed))
            answers.append(_delivered(objects[-1]))
            if not accept(i, answers[-1]):
                return answers, False
    return answers, True


def _step(stub: Callable, objects: list, entry: tuple, renamed: tuple[str, str]):
    """One recorded call or Step replayed: the answer, or Raised."""
    args, kwargs, _ = entry
    if type(entry) is not Step:
        return _replay(stub, args, kwargs, renamed=renamed)
    target = objects[entry.on]
    if entry.op == "call":
        return _replay(target, args, kwargs, renamed=renamed)
    try:
        return getattr(target, args[0]) if entry.op == "getattr" else list(target)
    except Exception as exc:
        return Raised.of(exc, renamed)


class _Handle:
    """What a replay answers where the worker would answer a handle (not plain data)."""

    def __repr__(self):
        return "<a handle>"


HANDLE = _Handle()


def _delivered(value):
    """The value as the protocol would deliver it from the worker: exact plain types
    (an OrderedDict is a dict, a Parameter a tensor), HANDLE for anything else."""
    if isinstance(value, Raised):
        return value
    try:
        packed, buffers = protocol.pack(value, lambda v: {"t": "handle", "id": 0, "type": ""})
        return protocol.unpack(packed, buffers, lambda h: HANDLE)
    except (ValueError, TypeError, protocol.ProtocolError) as exc:  # nested too deeply
        return Raised.of(exc)


def _is_handle(value) -> bool:
    """HANDLE, or a RemoteObject (known by its protocol.Handle: student.py imports
    this module, not the other way round)."""
    return value is HANDLE or isinstance(getattr(value, "_handle", None), protocol.Handle)


def _made(record: Calls) -> dict[int, object]:
    """{id(handle): its twin} for one replay of the record's calls."""
    try:
        return {key: t.make() for key, t in record.twins.items()}
    except Exception as exc:  # the test's own code: nothing is named
        log.warning("diagnosis of %s: a twin could not be made", record.name, exc_info=True)
        raise Unreplayable("twin") from exc


def _stateful(record: Calls) -> list[Twin]:
    return [t for t in record.twins.values() if t.read is not None]


def _states(record: Calls, twins: dict[int, object]) -> list:
    return [t.read(twins[id(t.handle)]) for t in _stateful(record)]


def _replay(mistake: Callable, args, kwargs, twins: dict[int, object] | None = None,
            renamed: tuple[str, str] | None = None):
    """The mistake's answer on copies of the arguments (it may modify them in place),
    each handle replaced by its twin (not a copy); an exception's message with the
    names `renamed` swapped (Raised.of). It holds the global RNGs' lock, unseeded."""
    memo = dict(twins or {})  # _copied leaves what it finds here: the twins, uncopied
    args, kwargs = _copied(args, memo), _copied(kwargs, memo)
    try:
        with quiet_numpy(), numerics.GLOBAL_RNG:  # it may build a module: its draws
            return mistake(*args, **kwargs)
    except Exception as exc:  # what the student's code may raise too
        return Raised.of(exc, renamed)


def quiet_numpy():
    """Around a replay or a sign: NumPy's floating-point warnings (an overflow in exp, a
    division by zero) are the mistake's answer, not news for the grader's console.
    NumPy's error state is per thread and context: the other grading threads keep theirs."""
    return np.errstate(all="ignore")


def _copied(value, memo: dict[int, object]):
    """A copy of the plain data `value` (what copy.deepcopy gives, at a fraction of its
    cost: torch's __deepcopy__ alone took a third of hw1's diagnosing); what memo holds
    for an object's id stands for it (the twins, and what was copied already: an
    array passed twice is copied once). Unreplayable for anything but plain data
    and handles with a twin."""
    if id(value) in memo:
        return memo[id(value)]
    kind = type(value)
    if value is None or kind in (bool, int, float, complex, str, bytes):
        return value
    if kind is tuple or kind is list:
        made = kind(_copied(v, memo) for v in value)
    elif kind is dict:
        made = {k: _copied(v, memo) for k, v in value.items()}
    elif isinstance(value, (tuple, list, dict)):  # a subclass (a state_dict's OrderedDict)
        for v in value.values() if isinstance(value, dict) else value:
            _copied(v, memo)  # checked, and copied into memo, where deepcopy finds them
        made = copy.deepcopy(value, memo)
    elif kind is np.ndarray:
        made = value.copy()
    elif torch is not None and kind is torch.Tensor and value.is_leaf:
        made = value.detach().clone().requires_grad_(value.requires_grad)
    elif isinstance(value, (numbers.Number, str, bytes, np.ndarray)) \
            or (torch is not None and isinstance(value, torch.Tensor)):
        made = copy.deepcopy(value)  # a subclass, a numpy scalar: deepcopy knows best
    else:
        raise Unreplayable(type(value).__name__)
    memo[id(value)] = made
    return made


def _same(answer, mistaken, rtol: float, atol: float) -> bool:
    """Whether the student's answer is the mistake's: same kind of value throughout,
    arrays of one dtype and shape with values within rtol/atol, the same exception;
    a handle is the same as a handle (what it does is in the Steps after it)."""
    if isinstance(answer, Raised) or isinstance(mistaken, Raised):
        return isinstance(answer, Raised) and isinstance(mistaken, Raised) and answer.same(mistaken)
    if isinstance(answer, numbers.Number) and isinstance(mistaken, numbers.Number) \
            and not isinstance(answer, np.ndarray):
        return _same_number(answer, mistaken, rtol, atol)
    if type(answer) is not type(mistaken):  # a handle's (RemoteObject) and a replay's (HANDLE)
        return _is_handle(answer) and _is_handle(mistaken)
    if isinstance(answer, (tuple, list)):
        return len(answer) == len(mistaken) and all(
            _same(a, m, rtol, atol) for a, m in zip(answer, mistaken))
    if isinstance(answer, dict):
        return answer.keys() == mistaken.keys() and all(
            _same(answer[k], mistaken[k], rtol, atol) for k in answer)
    if torch is not None and isinstance(answer, torch.Tensor):
        answer, mistaken = answer.detach(), mistaken.detach()
        if answer.dtype != mistaken.dtype or answer.shape != mistaken.shape:
            return False
        return _close(answer.numpy(), mistaken.numpy(), rtol, atol)
    if isinstance(answer, np.ndarray):
        return (answer.dtype == mistaken.dtype and answer.shape == mistaken.shape
                and _close(answer, mistaken, rtol, atol))
    return answer == mistaken


def _same_number(a, m, rtol: float, atol: float) -> bool:
    """Numbers of one kind (bool, integer or not), equal or, when real, close."""
    kind = lambda x: bool if isinstance(x, bool) else (
        numbers.Integral if isinstance(x, numbers.Integral) else numbers.Number)
    if kind(a) is not kind(m):
        return False
    if isinstance(a, numbers.Integral):
        return int(a) == int(m)
    if isinstance(a, complex) or isinstance(m, complex):
        return a == m
    return _close(np.float64(a), np.float64(m), rtol, atol)


def _close(a: np.ndarray, m: np.ndarray, rtol: float, atol: float) -> bool:
    if a.dtype.kind not in "biufc":
        return bool(np.array_equal(a, m))
    if a.dtype.kind in "biu":
        return bool(np.array_equal(a, m))
    return bool(np.isclose(a, m, rtol=rtol, atol=atol, equal_nan=True).all())
