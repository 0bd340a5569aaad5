"""Signs any assignment may declare: mistakes that read the same whatever the stub.

A sign is a Diagnosis with replay=False (declared.py): a function of
the test's recorded calls of the stub, true only of answers no correct stub gives.
"""
from __future__ import annotations

from typing import Callable

from autograder.engine.diagnoses import replay
from autograder.engine.diagnoses.declared import Diagnosis
from autograder.engine.diagnoses.raised import Raised


ASSERTED = ("an invalid argument is refused with assert, which raises AssertionError (and "
            "python -O skips every assert); refuse it with raise ValueError(...)")


def refused_with_assert(question: str, reference: Callable, section: str,
                        name: str) -> Diagnosis:
    """The diagnosis, its mistake named `name`, of a stub that refuses with `assert` what
    the task says to refuse with ValueError. A sign: the stub raised AssertionError on a
    call, and on every call it did, `reference` (the stub's reference) raises ValueError.
    Refusing a valid argument is another mistake, and a call holding a handle (an object
    in the worker) cannot be given to the reference: either is no sign."""
    def shows(calls) -> bool:
        asserted = [(args, kwargs) for args, kwargs, answer in calls
                    if isinstance(answer, Raised) and answer.type_names[0] == "AssertionError"]
        for args, kwargs in asserted:
            try:  # on copies of the arguments, as a mistake is replayed
                answer = replay.answer(reference, args, kwargs)
            except replay.Unreplayable:
                return False
            if not (isinstance(answer, Raised) and "ValueError" in answer.type_names):
                return False
        return bool(asserted)

    shows.__name__ = shows.__qualname__ = name
    return Diagnosis(question, shows, ASSERTED, section, replay=False)


def accepted_unchecked(question: str, reference: Callable, section: str, name: str,
                       explanation: str,
                       which: Callable[[tuple, dict], bool] = lambda args, kwargs: True
                       ) -> Diagnosis:
    """The diagnosis, its mistake named `name`, of a stub that does not check its
    arguments: whichever way it is written, it answers a call that `reference` refuses
    with ValueError, or fails there with another exception while it raises ValueError
    nowhere (an exception of its own type, or the library's that comes later). A sign,
    read on the calls `which(args, kwargs)` selects (one kind of bad argument: a refused
    call of another kind the stub lets through is another diagnosis's, and then this
    one is not named); the stub must also have answered a call the reference answers
    (an attempt, not a stand-in). AssertionError is refused_with_assert's; a call
    holding a handle cannot be given to the reference: no sign."""
    def shows(calls) -> bool:
        attempted = unchecked = False
        checks = any(isinstance(a, Raised) and "ValueError" in a.type_names for *_, a in calls)
        for args, kwargs, answer in calls:
            try:  # on copies of the arguments, as a mistake is replayed
                expected = replay.answer(reference, args, kwargs)
            except replay.Unreplayable:
                return False
            if not (isinstance(expected, Raised) and "ValueError" in expected.type_names):
                attempted = attempted or not isinstance(answer, Raised)
                continue
            if isinstance(answer, Raised) and ("ValueError" in answer.type_names or checks
                                               or answer.type_names[0] == "AssertionError"):
                continue
            if not which(args, kwargs):
                return False
            unchecked = True
        return attempted and unchecked

    shows.__name__ = shows.__qualname__ = name
    return Diagnosis(question, shows, explanation, section, replay=False)
