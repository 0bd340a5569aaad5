"""What a test of a diagnosed question records while it runs: every call of the
stub (arguments and answer, or Raised), the Steps on the handles they answered,
the seeds, the twins the test declared. Only appends: a passing test pays no
more; everything else happens once a test has failed (match.py)."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable

import numpy as np

from autograder.engine.diagnoses.declared import Diagnosis
from autograder.engine.diagnoses.raised import Raised
from autograder.engine.numerics import torch  # None without torch (numpy-only installations)
from autograder.engine.observing import UNREAD  # a twin without state read back

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
        stand-in raising everywhere (evidence.py)."""
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
        self.elements += elements(answer)
        if self.count >= MAX_CALLS or self.elements > self.max_elements:
            self.spoiled = True
        if not self.spoiled:
            self.calls.append(entry)
            self.count += 1


class Repeated(tuple):
    """(args, kwargs, answers) of n calls on the same arguments (Calls.add_repeated)."""


def elements(value) -> int:
    """Array entries in an answer (its arrays and tensors, in tuples and lists)."""
    if isinstance(value, (tuple, list)):
        return sum(elements(v) for v in value)
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
