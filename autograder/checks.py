"""Assertions for hidden tests, with messages safe to show the student.

A failed check raises Fail with a message that says what was checked and
how the student's answer differs (type, shape, dtype, where the first
mismatch is and the student's value there) but never the expected value:
feedback must not turn hidden tests into an answer key.
"""
from __future__ import annotations

import contextlib
import numbers

import numpy as np

from autograder.engine import numerics
from autograder.engine.numerics import torch  # None without torch (numpy-only installations)

from autograder.engine.driving.fail import Fail, fail
from autograder.engine.driving.student import RemoteObject, StudentError

seeded = numerics.seeded  # the name hidden tests import (autograder.testing)


def as_array(value, what: str) -> np.ndarray:
    """The value as a numpy array (an array, a tensor, a list of numbers); a
    handle or anything not array-like fails with a message."""
    if isinstance(value, np.ndarray):
        return value
    if torch is not None and isinstance(value, torch.Tensor):
        return value.detach().numpy()
    if isinstance(value, RemoteObject):
        fail(f"{what}: returned a {value.type_name}, not an array or tensor")
    try:
        return np.asarray(value)
    except (ValueError, TypeError):
        fail(f"{what}: returned a {type(value).__name__} that is not array-like")


def expect_tensor(value, what: str):
    """The value must be a torch.Tensor (not an array, list or other object)."""
    if torch is None or not isinstance(value, torch.Tensor):
        fail(f"{what}: expected a torch.Tensor, got {_describe(value)}")
    return value


def expect_ndarray(value, what: str) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        fail(f"{what}: expected a numpy.ndarray, got {_describe(value)}")
    return value


def expect_shape(value, shape: tuple, what: str) -> None:
    got = tuple(as_array(value, what).shape)
    if got != tuple(shape):
        fail(f"{what}: shape {got}, expected {tuple(shape)}")


def expect_dtype(value, dtype, what: str) -> None:
    """`dtype` as authors write it: "float64", np.float64, np.dtype("float64"),
    torch.float64 or "torch.float64" all mean the same."""
    if hasattr(value, "dtype"):
        got, same = str(value.dtype), _dtype_name(value.dtype) == _dtype_name(dtype)
    else:  # a Python value: only its own type's name matches
        got = type(value).__name__
        same = got == str(dtype)
    if not same:
        named = isinstance(dtype, str) or str(dtype).startswith("torch.")
        fail(f"{what}: dtype {got}, expected {dtype if named else _dtype_name(dtype)}")


def _dtype_name(dtype) -> str:
    """'float64' for np.float64, np.dtype('float64'), 'float64', 'torch.float64'."""
    text = str(dtype)
    if text.startswith("torch."):
        return text[len("torch."):]
    try:
        return np.dtype(dtype).name
    except TypeError:
        return text


def expect_close(actual, expected, what: str, rtol: float = 1e-5, atol: float = 1e-6,
                 equal_nan: bool = False) -> None:
    """Same shape and all entries close; -inf/inf must match exactly."""
    a = as_array(actual, what)
    e = as_array(expected, what)
    if a.shape != e.shape:
        fail(f"{what}: shape {tuple(a.shape)}, expected {tuple(e.shape)}")
    if a.dtype.kind not in "biufc":
        fail(f"{what}: entries of type {a.dtype} are not numbers")
    if np.array_equal(a, e):  # an exact answer, the usual one: a pass, no float64 copies
        return
    a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    e64 = e.astype(a64.dtype)
    ok = np.isclose(a64, e64, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if not ok.all():
        bad = np.argwhere(~ok)
        index = tuple(int(i) for i in bad[0])
        where = f"at index {index}" if index else "the value"
        fail(f"{what}: {len(bad)} of {ok.size} entries differ from the reference; "
             f"first {where}: yours is {_scalar(a64[index])}" + _error_size(a64, e64, ~ok, rtol, atol))


ROUNDING = 1e-5
"""Relative differences below this, everywhere, are rounding, not a wrong formula."""


def _error_size(a, e, bad, rtol: float, atol: float) -> str:
    """The largest difference, as a power of ten, and the tolerance: enough to tell
    rounding (float32 keeps about 7 digits) from a wrong value, never the expected
    value itself (only the order of its distance from the student's)."""
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a - e)
        finite = bad & np.isfinite(diff)
    if not finite.any():
        return " (nan or inf where a number is expected, or the reverse)"
    largest = float(diff[finite].max())
    scale = float(np.abs(e[finite]).max())
    order = f"1e{int(np.floor(np.log10(largest))):+03d}" if largest > 0 else "0"
    text = (f"; the largest difference is of order {order} (tolerance "
            f"{atol:g} + {rtol:g} x |expected|)")
    if _float32(a) and not _float32(e):
        text += (": your values are all float32 numbers (about 7 significant digits); "
                 "compute in float64")
    elif largest <= ROUNDING * max(scale, 1.0):
        text += (": differences this small are rounding; float32 arithmetic gives about "
                 "1e-7 of each value, so compute in float64")
    return text


def _float32(x) -> bool:
    """Whether every finite value of a real array is a float32 number (its digits lost)."""
    if x.dtype.kind != "f":
        return False
    with np.errstate(over="ignore", invalid="ignore"):
        finite = x[np.isfinite(x)]
        return finite.size > 0 and bool(np.array_equal(finite, finite.astype(np.float32)))


def agrees(actual, expected, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """Whether expect_close would accept `actual` (never fails). For a test whose
    subject is not the values (stability, exactness at huge sizes): it compares with
    the reference only where the student's values are right, so that a wrong value,
    another test's subject, does not fail it too."""
    try:
        expect_close(actual, expected, "", rtol=rtol, atol=atol)
    except Fail:
        return False
    return True


def expect_finite(value, what: str) -> np.ndarray:
    """The value as an array of real numbers, none of them nan or inf."""
    a = as_array(value, what)
    if a.dtype.kind not in "biuf":
        fail(f"{what}: entries of type {a.dtype} are not numbers")
    if not np.isfinite(a).all():
        fail(f"{what}: holds nan or inf where numbers are expected")
    return a


def changed(before, after, what: str, rtol: float = 0.0, atol: float = 0.0) -> bool:
    """Whether `after` differs somewhere from `before` by more than atol + rtol x
    |before|. For a test that judges an answer by whether it moves (it depends on an
    input, it ignores another): both must be finite numbers of one shape, else the
    test fails here, since nan is close to nothing and would read as moved."""
    a, b = expect_finite(before, what), expect_finite(after, what)
    if a.shape != b.shape:
        fail(f"{what}: shape {tuple(b.shape)} here, {tuple(a.shape)} before")
    return not np.allclose(b, a, rtol=rtol, atol=atol)


def expect_equal(actual, expected, what: str) -> None:
    """Exact equality of plain data (ints, strings, lists, tuples)."""
    if type(actual) in (list, tuple) and type(expected) in (list, tuple):
        if len(actual) != len(expected):
            fail(f"{what}: length {len(actual)}, expected {len(expected)}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            if not _plain_equal(a, e):
                fail(f"{what}: differs first at position {i}: yours is {_short(a)}")
        return
    if not _plain_equal(actual, expected):
        fail(f"{what}: yours is {_short(actual)}, which is not the expected value")


def expect_int(value, what: str) -> int:
    """An integer (Python int or numpy integer; not a float, not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        fail(f"{what}: expected an int, got {_describe(value)}")
    return int(value)


def as_int(value, what: str) -> int:
    """The whole number a value holds: an int, a numpy integer, a whole float, a 0-d
    array or tensor. For a test whose subject is the value: that its type is int is
    the type test's subject, so a right count returned as 12.0 or a tensor is read."""
    number = value if isinstance(value, numbers.Real) else expect_number(value, what)
    if isinstance(number, bool) or not float(number).is_integer():
        fail(f"{what}: expected a whole number, got {_describe(value)} {_short(value)}")
    return int(number)


def expect_number(value, what: str) -> float:
    """A real number: a Python or numpy scalar, or a 0-d array or tensor (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        arr = as_array(value, what)
        if arr.shape != () or arr.dtype.kind not in "iuf":
            fail(f"{what}: expected a number, got {_describe(value)}")
        return float(arr)
    return float(value)


@contextlib.contextmanager
def expect_raises(exc_type: type, what: str):
    """The student's code must raise exc_type (or a subclass)."""
    try:
        yield
    except StudentError as err:
        if not err.is_a(exc_type):
            fail(f"{what}: raised {err.type_name}, expected {exc_type.__name__}")
        return
    fail(f"{what}: returned normally, expected it to raise {exc_type.__name__}")


def _scalar(x) -> str:
    """A number as Python writes it (0.25, -inf), not numpy's repr (np.float64(0.25)),
    to six significant digits: a float32 result differs in its last bits from one
    CPU to another (vector kernels sum in other orders), and a message must read
    the same on every machine."""
    if np.iscomplexobj(x):
        return repr(complex(f"{complex(x).real:.6g}{complex(x).imag:+.6g}j"))
    return repr(float(f"{float(x):.6g}"))


def _plain_equal(a, e) -> bool:
    if isinstance(a, bool) != isinstance(e, bool):
        return False
    if isinstance(a, numbers.Number) and isinstance(e, numbers.Number):
        return a == e
    if type(a) in (list, tuple) and type(e) in (list, tuple):
        return len(a) == len(e) and all(_plain_equal(x, y) for x, y in zip(a, e))
    return type(a) is type(e) and a == e


def _describe(value) -> str:
    if isinstance(value, RemoteObject):
        return f"a {value.type_name}"
    if isinstance(value, np.ndarray):
        return f"a numpy array of shape {value.shape}"
    return f"a {type(value).__name__}"


def _short(value) -> str:
    text = repr(value) if not isinstance(value, RemoteObject) else f"a {value.type_name}"
    return text if len(text) <= 80 else text[:77] + "..."


FORMAT_TEST = "autograder_format_test"
"""The attribute format_test sets on a test function."""


def format_test(test):
    """Declares a hidden test about the answer's format only (its type, shape, dtype):
    one that a constant of the right type and shape passes, as it should. `build`
    grades stand-ins of every stub (raising, returning their input, answering zeros
    or ones of the right shape) and refuses any test they earn a point on, but these
    (autograder.build.selfcheck). Returns the test itself, marked."""
    setattr(test, FORMAT_TEST, True)
    return test


def is_format_test(test) -> bool:
    """Whether `test` (a loaded test function, read in the trusted process) is
    declared a format test."""
    return getattr(test, FORMAT_TEST, False) is True
