"""Signs any assignment may declare: mistakes that read the same whatever the stub.

A sign is a Diagnosis with replay=False (declared.py): a function of
the test's recorded calls of the stub, true only of answers no correct stub gives.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from autograder.engine.diagnoses import compare, replay
from autograder.engine.diagnoses.declared import Diagnosis
from autograder.engine.diagnoses.raised import Raised
from autograder.engine.diagnoses.record import Step
from autograder.engine.numerics import torch  # None without torch (numpy-only installations)


ASSERTED = ("an invalid argument is refused with assert, which raises AssertionError (and "
            "python -O skips every assert); refuse it with raise ValueError(...)")


def refused_with_assert(question: str, reference: Callable, section: str,
                        name: str) -> Diagnosis:
    """The diagnosis, its mistake named `name`, of a stub that refuses with `assert` what
    the task says to refuse with ValueError. A sign: the stub raised AssertionError on a
    call, and on every call it did, `reference` (the stub's reference) raises ValueError,
    and it answered a call of the test too (a stub that raises everywhere, `assert False,
    "todo"`, is no attempt). Refusing a valid argument is another mistake, and a call
    holding a handle (an object in the worker) cannot be given to the reference: either
    is no sign."""
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
        return bool(asserted) and any(not isinstance(answer, Raised) for *_, answer in calls)

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


def answers_vary(question: str, explanation: str, section: str, name: str) -> Diagnosis:
    """The diagnosis, its mistake named `name`, of a class stub whose objects draw random
    numbers where the task is a function of the inputs (a model's forward with a dropout
    left active). A sign, whatever else the stub does: an object of the stub answered
    one request twice in a row, on equal arguments, with finite numbers of one shape
    that differ. A deterministic object cannot (nothing ran on it in between); a stand-in
    is deterministic. Read on the Steps (Diagnosis.steps), so the test must make the
    same request twice: hw4's logits tests do, once the logits are wrong."""
    def shows(calls) -> bool:
        return any(_repeated(a, b) and _differ(a[2], b[2]) for a, b in zip(calls, calls[1:]))

    shows.__name__ = shows.__qualname__ = name
    return Diagnosis(question, shows, explanation, section, replay=False, steps=True)


def _repeated(a, b) -> bool:
    """Two Steps in a row calling one object with equal arguments."""
    return type(a) is Step and type(b) is Step and a.op == b.op == "call" and a.on == b.on \
        and compare.same(a[0], b[0], 0.0, 0.0) and compare.same(a[1], b[1], 0.0, 0.0)


def _differ(x, y) -> bool:
    """Finite arrays (or tensors) of one shape, apart by more than rounding."""
    x, y = _finite(x), _finite(y)
    return x is not None and y is not None and x.shape == y.shape \
        and not np.allclose(x, y, rtol=1e-5, atol=1e-6)


def _finite(value) -> np.ndarray | None:
    if torch is not None and isinstance(value, torch.Tensor):
        value = value.detach().numpy()
    if not isinstance(value, np.ndarray) or value.dtype.kind not in "fc" \
            or not np.isfinite(value).all():
        return None
    return value
