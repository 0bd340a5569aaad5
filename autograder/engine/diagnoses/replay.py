"""A mistake replayed on copies of a recorded call's arguments, each handle
replaced by its twin, in the trusted process."""
from __future__ import annotations

import copy
import logging
import numbers
from typing import Callable

import numpy as np

from autograder.engine import numerics
from autograder.engine.diagnoses.raised import Raised
from autograder.engine.diagnoses.record import Calls, Twin
from autograder.engine.numerics import torch  # None without torch (numpy-only installations)

log = logging.getLogger(__name__)


class Unreplayable(Exception):
    """A recorded call that cannot be replayed here (its arguments hold a handle
    without a twin, or a twin could not be made)."""


def make_twins(record: Calls) -> dict[int, object]:
    """{id(handle): its twin} for one replay of the record's calls."""
    try:
        return {key: t.make() for key, t in record.twins.items()}
    except Exception as exc:  # the test's own code: nothing is named
        log.warning("diagnosis of %s: a twin could not be made", record.name, exc_info=True)
        raise Unreplayable("twin") from exc


def stateful(record: Calls) -> list[Twin]:
    return [t for t in record.twins.values() if t.read is not None]


def states(record: Calls, twins: dict[int, object]) -> list:
    return [t.read(twins[id(t.handle)]) for t in stateful(record)]


def answer(mistake: Callable, args, kwargs, twins: dict[int, object] | None = None,
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
