"""The Observer that keeps a test's calls of its question's stub (a Calls), for a
diagnosis if the test fails: every call with its answer or Raised, the Steps on the
handles they answered, the seeds, the twins. The Student reports (engine/observing.py);
only what is reported here is kept, and only by appending: a passing test pays no more.

What it knows of a handle (how it was made, how often it was sent, which recorded
entry answered it) it keeps on the handle's `observed` slot, which the Student
never reads: made_by() and times_sent() are what course code may read of it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from autograder.engine.diagnoses.raised import Raised
from autograder.engine.diagnoses.record import Calls, Step
from autograder.engine.observing import Observer


@dataclass
class Facts:
    """What the recorder knows of one handle."""

    source: tuple[Calls, int] | None = None
    """(record, index) of the recorded call or Step that answered it: its every use
    is kept as a Step of that entry."""
    made: tuple | None = None
    """(path, args, kwargs) of the test's Student.new() that built it; None again once
    an attribute of it was read (a method call may change it)."""
    sent: int = 0
    """Requests it was an argument of (each may change it)."""


def _known(value) -> Facts | None:
    """What the recorder knows of `value` (None: nothing, or not a handle)."""
    facts = getattr(value, "observed", None)
    return facts if isinstance(facts, Facts) else None


def _facts(handle) -> Facts:
    facts = _known(handle)
    if facts is None:
        facts = handle.observed = Facts()
    return facts


def answered_by(handle, record: Calls, index: int):
    """Mark `handle` as answered by entry `index` of `record` (what the test does to
    it is kept as Steps); returns the handle."""
    _facts(handle).source = (record, index)
    record.driven = True
    return handle


def made_by(value) -> tuple | None:
    """(path, args, kwargs) of the Student.new() that built `value`, a handle of a
    recorded test, while nothing of it was read (reading an attribute may change it);
    None for anything else. A function, not an attribute: a handle's attributes are
    the worker object's."""
    facts = _known(value)
    return facts.made if facts is not None else None


def times_sent(value) -> int:
    """How many requests the handle `value` was an argument of in a recorded test
    (each may have changed it); 0 for anything else."""
    facts = _known(value)
    return facts.sent if facts is not None else 0


@dataclass
class _Request:
    """A recorded request: a call of the stub (on None) or a Step on entry `on`."""

    record: Calls
    index: int
    """Where its entry goes in record.calls: the handles it answers come from it."""
    args: tuple
    kwargs: dict
    on: int | None = None
    op: str = "call"
    times: int | None = None
    """A call run n times in one request (Student.repeat)."""

    def keep(self, answer) -> None:
        if self.on is not None:
            self.record.add_step(self.on, self.op, self.args, self.kwargs, answer)
        else:
            self.record.add(self.args, self.kwargs, answer)


class Recorder(Observer):
    """Keeps in `record` what a test does with its question's stub."""

    def __init__(self, record: Calls):
        self.record = record
        self._shared: set[int] = set()  # ids of the shared answers' calls the record holds

    def calling(self, name, args, kwargs, times):
        if name != self.record.name:
            return None
        return _Request(self.record, len(self.record.calls), args, kwargs, times=times)

    def stepping(self, handle, op, args, kwargs, times):
        facts = _known(handle)
        if facts is None:
            return None
        if op == "getattr":
            facts.made = None
        if facts.source is None:
            return None
        record, on = facts.source
        if times is not None:  # n calls in one request: not replayed
            record.spoiled = True
            return None
        if record.spoiled:  # nothing more to keep: the request alone
            return None
        return _Request(record, len(record.calls), args, kwargs, on, op)

    def answered(self, token, answer):
        if token.times is None:
            token.keep(answer)
        elif isinstance(answer, list) and len(answer) == token.times:
            token.record.add_repeated(token.args, token.kwargs, answer)
        else:
            token.record.spoiled = True

    def raised(self, token, type_names, message):
        """Of n repeated calls, the one that raised alone is kept: the answers before
        it never arrive."""
        token.keep(Raised(type_names, message))

    def broke(self, token):
        token.record.spoiled = True

    def holds(self, token, handle):
        if token.times is not None:  # a repeat answering handles is not replayed
            token.record.spoiled = True
        else:
            answered_by(handle, token.record, token.index)

    def made(self, handle, path, args, kwargs):
        _facts(handle).made = (path, args, kwargs)  # a sign compares generators' seeds

    def sent(self, handle):
        facts = _facts(handle)
        facts.sent += 1
        if facts.source is not None:  # the student's code may change it where no Step sees
            facts.source[0].spoiled = True

    def reset(self, seed):
        self.record.seed = seed  # what a recorded object's random weights drew from

    def reseeded(self, seed):
        self.record.reseeded(seed)  # a recorded object built after it drew from this seed

    def answer_read(self, question, kwargs, answer):
        if self.record.name == question:
            self.record.add((), dict(kwargs), answer)

    def twin(self, handle, make: Callable, read, seen):
        self.record.twin(handle, make, read, seen)

    def mark(self):
        return len(self.record.calls)

    def since(self, mark):
        """The calls after `mark`, with the twins, unless Steps are among them (they act
        on this test's objects) or the record is spoiled."""
        record = self.record
        calls = record.calls[mark:]
        if record.spoiled or any(isinstance(c, Step) for c in calls):
            return None
        kept = record.name, calls, dict(record.twins)
        self._shared.add(id(kept))
        return kept

    def again(self, kept):
        """A test read those answers: they are its calls too (of another question's,
        or none kept: the record is spoiled), once however often it reads them (a
        test may read one answer of many at a time)."""
        if kept is not None:
            if id(kept) in self._shared:
                return
            self._shared.add(id(kept))
        name, calls, twins = kept if kept is not None else (None, (), {})
        if name != self.record.name:
            self.record.spoiled = True
        self.record.add_entries(calls)
        self.record.twins.update(twins)
