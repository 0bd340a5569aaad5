"""The accepted types of an exam's short answers: one definition for both sides.

A student computes an answer the natural way, in the open-notebook exam:
`CROSS_ATTENTION_SHAPE = weights.shape` (a torch.Size), a parameter count
summed by numpy (np.int64), a fraction from torch (a 0-d tensor), a list
where a tuple is asked, an int where a float is. Each kind below accepts
every such value when the value is right, and answer_problem says, in one
sentence, what is wrong with any other. `build` copies this file into the
exam notebook's public checks, and the hidden tests call it on what the
worker sends back (exam.grading), so `grader.check` and the grade agree
(tests/exam/test_formats.py runs both on the same answers). Hence: the
standard library only, numpy and torch values read by duck typing.
"""
import math
import numbers

EXAMPLES = {"count": "a whole number such as 1024", "shape": "a tuple of positive ints such as (2, 3, 4)",
            "number": "a number such as 0.25"}


def _plain(value):
    """A 0-d array, tensor or numpy scalar as its Python number (its .item())."""
    if getattr(value, "shape", None) == () and callable(getattr(value, "item", None)):
        try:
            return value.item()
        except (TypeError, ValueError, RuntimeError):
            return value
    return value


def as_number(value):
    """A finite real number (not a bool), or None."""
    value = _plain(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def as_count(value):
    """A whole number >= 0 (an int, a numpy integer, a float with no fraction), or None."""
    value = _plain(value)
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value) if value >= 0 else None  # exact, even beyond 2**53
    number = as_number(value)
    return int(number) if number is not None and number >= 0 and number == int(number) else None


def as_shape(value):
    """A tuple of positive ints from a tuple (torch.Size is one), a list or a 1-D integer
    array or tensor, or None."""
    if getattr(value, "ndim", None) == 1 and callable(getattr(value, "tolist", None)):
        value = value.tolist()
    if not isinstance(value, (tuple, list)) or not value:
        return None
    items = [_plain(item) for item in value]
    if any(isinstance(i, bool) or not isinstance(i, numbers.Integral) or i < 1 for i in items):
        return None
    return tuple(int(i) for i in items)


READERS = {"count": as_count, "shape": as_shape, "number": as_number}


def answer_problem(kind: str, value, name: str, low=None, high=None):
    """What is wrong with `value` as the answer `name` of this kind ("count", "shape",
    "number"), bounds included; None when it is accepted."""
    if value is Ellipsis:
        return f"{name} is still ...: replace it with your answer"
    read = READERS[kind](value)
    if read is None:
        return f"{name} should be {EXAMPLES[kind]}, not {type(value).__name__} {value!r:.40}"
    if (low is not None and read < low) or (high is not None and read > high):
        within = f"between {low} and {high}" if high is not None else f"at least {low}"
        return f"{name} should be {within}"
    return None
