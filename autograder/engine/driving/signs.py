"""Signs any assignment may declare: mistakes that read the same whatever the stub.

A sign is a Diagnosis with replay=False (engine/driving/diagnose.py): a function of
the test's recorded calls of the stub, true only of answers no correct stub gives.
"""
from __future__ import annotations

import copy
import numbers
from typing import Callable

import numpy as np

from autograder.engine.driving.diagnose import Diagnosis, Raised
from autograder.engine.threads import torch  # None without torch


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
            if not (_plain(args) and _plain(kwargs)):
                return False
            try:
                reference(*copy.deepcopy(args), **copy.deepcopy(kwargs))
            except ValueError:
                continue
            except Exception:
                return False
            return False
        return bool(asserted)

    shows.__name__ = shows.__qualname__ = name
    return Diagnosis(question, shows, ASSERTED, section, replay=False)


def _plain(value) -> bool:
    """Data, not a handle: numbers, strings, None, arrays and tensors, and tuples, lists
    and dicts of them."""
    if value is None or isinstance(value, (numbers.Number, str, bytes, np.ndarray, np.generic)):
        return True
    if torch is not None and isinstance(value, torch.Tensor):
        return True
    if isinstance(value, (tuple, list)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    return False
