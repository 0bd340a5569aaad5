"""Signs any assignment may declare: mistakes that read the same whatever the stub.

A sign is a Diagnosis with replay=False (engine/driving/diagnose.py): a function of
the test's recorded calls of the stub, true only of answers no correct stub gives.
"""
from __future__ import annotations

from typing import Callable

from autograder.engine.driving import diagnose
from autograder.engine.driving.diagnose import Diagnosis, Raised


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
                answer = diagnose._replay(reference, args, kwargs)
            except diagnose.Unreplayable:
                return False
            if not (isinstance(answer, Raised) and "ValueError" in answer.type_names):
                return False
        return bool(asserted)

    shows.__name__ = shows.__qualname__ = name
    return Diagnosis(question, shows, ASSERTED, section, replay=False)

