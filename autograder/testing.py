"""Everything a hidden test imports: the one module for authors of autograder/<id>/test_*.py.

    from autograder.testing import expect_close, expect_shape, fail

A hidden test is a pytest test function taking the fixtures `student` (a
Student: the notebook's namespace in a sandboxed worker), `ref` (the module
autograder/<id>/reference.py), `submission` (who submitted: id and the
platform's metadata) and any fixture of its own module; it may be
parametrized. It fails by raising (Fail from the checks below, a plain assert,
pytest.raises/approx): the message is shown to the student. docs/authoring.md
says how to write one and how to run it with pytest against one notebook.

A newcomer needs only BASICS (the checks, statistical tests, @once and the
`student` fixture's types); ADVANCED holds the rest (handles and their twins,
code sent to the worker, lent modules, an exam's helpers, an assignment's
examples, reports and diagnoses). Both are in __all__; docs/testing-api.md
documents the names in the same two groups.
"""
from __future__ import annotations

from autograder.binomial import ALPHA, interval, pmf
from autograder.checks import (ROUNDING, agrees, as_array, as_int, changed, expect_close,
                               expect_dtype, expect_equal, expect_finite, expect_int,
                               expect_ndarray, expect_number, expect_raises, expect_shape,
                               expect_tensor, format_test, seeded)
from autograder.engine.isolation.callbacks import MAX_ARG_BYTES, MAX_CALLS
from autograder.engine.diagnoses.declared import Diagnosis, combined
from autograder.engine.driving.fail import Fail, fail
from autograder.engine.driving.once import once
from autograder.engine.driving.remote_modules import Memo, StudentModule, lend_module
from autograder.engine.driving.sent import sent_source
from autograder.engine.diagnoses.signs import accepted_unchecked, answers_vary, refused_with_assert
from autograder.engine.diagnoses.recorder import made_by, times_sent
from autograder.engine.driving.student import (RemoteFunction, RemoteObject, Student, StudentError,
                                       StudentTimeout)
from autograder.exam import formats, grading
from autograder.hooks import BatchReports, Examples

BASICS = [
    # checks: messages say what differs, never the expected value
    "Fail", "fail", "seeded", "as_array", "as_int", "agrees", "changed", "expect_close",
    "expect_dtype", "expect_equal", "expect_finite", "expect_int", "expect_ndarray",
    "expect_number", "expect_raises", "expect_shape", "expect_tensor", "ROUNDING",
    # a test about the answer's format only, which stand-ins may pass (build checks the rest)
    "format_test",
    # statistical tests: exact binomial intervals, ALPHA the false-fail probability per test
    "ALPHA", "interval", "pmf",
    # a value computed once per batch (references that do not depend on the submission)
    "once",
    # the student's notebook, seen from the test, and how calling it fails
    "Student", "StudentError", "StudentTimeout",
]
"""What every author meets first, and most hidden tests need nothing else: the checks,
statistical tests, @once, and the `student` fixture's type with its two failures."""

ADVANCED = [
    # handles: answers that stay in the worker (modules, objects, functions); a test may
    # declare a handle's twin, the same object built here (Student.twin), for diagnoses,
    # which may also read how a handle was made and how often it was sent
    "RemoteFunction", "RemoteObject", "made_by", "times_sent",
    # code that only the worker runs: sent_to_worker/<name>.py beside the test, as text
    "sent_source",
    # lent modules: known-good code the worker calls back into (never sent there)
    "MAX_ARG_BYTES", "MAX_CALLS", "Memo", "StudentModule", "lend_module",
    # an exam's grading helpers: whose numbers count, short answers and their formats
    "grading", "formats",
    # what an assignment's other modules provide (diagnoses.py: known mistakes, explained,
    # and signs any stub may show)
    "BatchReports", "Examples", "Diagnosis", "accepted_unchecked", "answers_vary", "combined",
    "refused_with_assert",
]
"""For tests that hold the student's objects (handles and their twins), send code to
the worker, lend it modules, grade an exam, or declare an assignment's examples,
reports and diagnoses."""

__all__ = [*BASICS, *ADVANCED]
