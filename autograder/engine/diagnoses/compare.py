"""Whether a student's answer is a mistake's: the same kind of value throughout,
within the mistake's tolerance (a handle is the same as a handle)."""
from __future__ import annotations

import numbers

import numpy as np

from autograder import protocol
from autograder.engine.diagnoses.raised import Raised
from autograder.engine.numerics import torch  # None without torch (numpy-only installations)


class _Handle:
    """What a replay answers where the worker would answer a handle (not plain data)."""

    def __repr__(self):
        return "<a handle>"


HANDLE = _Handle()


def is_handle(value) -> bool:
    """HANDLE, or a RemoteObject (known by its protocol.Handle: student.py imports
    this module, not the other way round)."""
    return value is HANDLE or isinstance(getattr(value, "_handle", None), protocol.Handle)


def same(answer, mistaken, rtol: float, atol: float) -> bool:
    """Whether the student's answer is the mistake's: same kind of value throughout,
    arrays of one dtype and shape with values within rtol/atol, the same exception;
    a handle is the same as a handle (what it does is in the Steps after it)."""
    if isinstance(answer, Raised) or isinstance(mistaken, Raised):
        return isinstance(answer, Raised) and isinstance(mistaken, Raised) and answer.same(mistaken)
    if _wrapped_number(answer) and isinstance(mistaken, numbers.Number) \
            and not isinstance(mistaken, bool):
        answer = answer.item()  # a number in a 0-d tensor or array, read as the tests read it
    if isinstance(answer, numbers.Number) and isinstance(mistaken, numbers.Number) \
            and not isinstance(answer, np.ndarray):
        return _same_number(answer, mistaken, rtol, atol)
    if type(answer) is not type(mistaken):  # a handle's (RemoteObject) and a replay's (HANDLE)
        return is_handle(answer) and is_handle(mistaken)
    if isinstance(answer, (tuple, list)):
        return len(answer) == len(mistaken) and all(
            same(a, m, rtol, atol) for a, m in zip(answer, mistaken))
    if isinstance(answer, dict):
        return answer.keys() == mistaken.keys() and all(
            same(answer[k], mistaken[k], rtol, atol) for k in answer)
    if torch is not None and isinstance(answer, torch.Tensor):
        answer, mistaken = answer.detach(), mistaken.detach()
        if answer.dtype != mistaken.dtype or answer.shape != mistaken.shape:
            return False
        return _close(answer.numpy(), mistaken.numpy(), rtol, atol)
    if isinstance(answer, np.ndarray):
        return (answer.dtype == mistaken.dtype and answer.shape == mistaken.shape
                and _close(answer, mistaken, rtol, atol))
    return answer == mistaken


def _wrapped_number(x) -> bool:
    """A 0-d tensor or array of numbers (not bools): the student's answer where a number
    is asked, which the hidden tests read as that number. Only the student's side is
    unwrapped: a mistake that answers a tensor (hw2's count_tensor) still differs from
    the reference's number."""
    if torch is not None and isinstance(x, torch.Tensor):
        return x.dim() == 0 and x.dtype != torch.bool and not x.is_complex()
    return isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iuf"


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
    """Floats and complex numbers within rtol/atol (nan equal to nan); others equal."""
    if a.dtype.kind not in "fc":
        return bool(np.array_equal(a, m))
    return bool(np.isclose(a, m, rtol=rtol, atol=atol, equal_nan=True).all())
