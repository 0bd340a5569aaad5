"""What an exam's hidden tests call: whose numbers to grade against.

    who = grading.resolution(submission, student)     # identity check, once per submission
    p = grading.numbers(submission, student, "encoder_params", ref)   # that student's variant

Both record what they decided in submission.annotations["exam"] (the
identity and the variant index per question, as plain data: results travel
and are stored as JSON), which the reports read.
"""
from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np

from autograder.checks import fail
from autograder.engine import config, untrusted
from autograder.engine.student import RemoteObject, StudentError
from autograder.exam import identity as identity_mod
from autograder.exam import variants

CLAIM_NAME = "STUDENT_ID"
"""The notebook global holding the identity the student claims."""


def settings(assignment_id: str) -> dict:
    """The [exam] table of the assignment's grading config ({} for a homework);
    read when asked, since a grading host may load a new version of it."""
    return config.load(assignment_id).exam


def _record(submission) -> dict:
    return submission.annotations.setdefault("exam", {"variants": {}})


def resolution(submission, student) -> identity_mod.Resolution:
    """The identity the answers are graded against, decided once per submission."""
    record = _record(submission)
    if "identity" not in record:
        claimed = None
        try:
            if student.has(CLAIM_NAME):
                claimed = student.value(CLAIM_NAME)
        except StudentError:
            claimed = None
        if isinstance(claimed, str):  # the student's text, quoted in the flag message
            claimed = untrusted.name(claimed)
        fields = tuple(settings(submission.assignment).get("identity_fields", ["sid", "email"]))
        record["identity"] = identity_mod.resolve(submission.submission, submission.metadata,
                                                  claimed, fields).to_plain()
    return identity_mod.Resolution.from_plain(record["identity"])


def numbers(submission, student, question: str, ref) -> dict:
    """The numbers of `question` for the identity being graded, with "variant"."""
    who = resolution(submission, student)
    table = ref.variant_table(question)
    v = variants.variant_index(ref.EXAM, question, who.graded_as, len(table))
    _record(submission)["variants"][question] = v
    return {"variant": v, **table[v]}


# ---- reading short answers ---------------------------------------------------

def answer(student, name: str):
    """The notebook global `name` as plain data; fails when it is missing,
    still `...`, or not plain data."""
    try:
        present = student.has(name)
        value = student.value(name) if present else None
    except StudentError as exc:
        fail(f"{name} could not be read ({exc.type_name})")
    if not present:
        fail(f"{name} is not defined: run its cell and submit again")
    if isinstance(value, RemoteObject):
        if value.type_name == "ellipsis":
            fail(f"{name} is still ...: replace it with your answer")
        fail(f"{name} is a {value.type_name}, not a plain number or tuple")
    return value


def number(value, name: str) -> float:
    """A real number from an int, a float or a 0-d array (bool refused)."""
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iuf":
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        fail(f"{name} should be a number, not {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        fail(f"{name} should be a finite number")
    return float(value)


def count(value, name: str) -> int:
    """A non-negative whole number (an int, or a float with no fraction)."""
    if isinstance(value, Integral) and not isinstance(value, (bool, np.bool_)):
        if value < 0:  # exact, even beyond 2**53
            fail(f"{name} should be a whole number >= 0")
        return int(value)
    x = number(value, name)
    if x != int(x) or x < 0:
        fail(f"{name} should be a whole number >= 0")
    return int(x)


def int_tuple(value, name: str) -> tuple[int, ...]:
    """A tuple or list of positive ints (a 1-D integer array also passes)."""
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "iu":
        value = value.tolist()
    if not isinstance(value, (tuple, list)) or not value:
        fail(f"{name} should be a tuple of ints such as (2, 3, 4), not {type(value).__name__}")
    items = []
    for item in value:
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, Integral) or item < 1:
            fail(f"{name} should hold positive ints only")
        items.append(int(item))
    return tuple(items)
