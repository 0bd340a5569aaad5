"""Do the notebooks' public checks fail with a readable message, whatever the answer?

A student runs `grader.check("<stub>")` on answers of every kind: None (an
unfinished stub), a float where a tensor is asked, a list where an array is
asked. Each public check must then pass or fail with an AssertionError whose
message says what is wrong; an error of the check's own (a TypeError from
`torch.isnan(0.0)`, an AttributeError from `.shape` on a list) tells the
student nothing. Every public check of every master is run here, as otter
runs it, against a set of wrongly typed answers.
"""
from __future__ import annotations

import ast
import random
import re
import warnings

import nbformat
import numpy as np
import pytest
import torch

from autograder import registry
from autograder.build import solution_notebook, student_notebook
from autograder.engine import config

BUILDABLE = [a.id for a in registry.all_assignments() if a.has_master]
ASSIGNMENTS = [a for a in BUILDABLE if not config.load(a).exam]
WRONG_ANSWERS = {
    "None": None, "a float": 0.5, "an int": 3, "a string": "x", "an empty list": [],
    "a list": [1.0, 2.0], "a tuple of one": (np.zeros(2),), "a numpy array": np.zeros(3),
    "a numpy scalar": np.float64(0.5), "a tensor": torch.zeros(3), "a 0-d tensor": torch.tensor(0.0),
    "a dict": {},
}


def public_tests(assignment_id: str) -> dict[str, list]:
    """{question: [test functions]} from the student notebook's metadata, as otter runs them."""
    nb = nbformat.reads(student_notebook(assignment_id).decode(), as_version=4)
    found = {}
    for question, source in nb.metadata["otter"]["tests"].items():
        scope: dict = {}
        code = source.replace("from otter.test_files import test_case",
                              "def test_case(**kwargs):\n    return lambda f: f")
        exec(compile(code, f"<public tests of {question}>", "exec"), scope)
        found[question] = [f for name, f in scope.items()
                           if name.startswith("test_") and name != "test_case"]
    return found


def solution_env(assignment_id: str) -> dict:
    """The solution notebook's names, its cells run as a student runs them (otter's own skipped)."""
    env: dict = {}
    for cell in solution_notebook(assignment_id).cells:
        if cell.cell_type == "code" and not re.search(r"\b(grader|otter)\b", cell.source):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(cell.source, "<cell>", "exec"), env)
    return env


def stand_in(name: str, answer):
    """A stub answering `answer`: a function, or a module class whose forward does."""
    if name[:1].isupper():
        return type(name, (torch.nn.Module,), {"forward": lambda self, *a, **k: answer,
                                                "__init__": lambda self, *a, **k:
                                                torch.nn.Module.__init__(self)})
    return lambda *args, **kwargs: answer


def outcome(test, env: dict, student_file: str | None = None) -> str:
    """"passed", "failed: <message>" or the name of the check's own error. An error that
    arose in the student's code (a function of `student_file`), an assert among them,
    is the student's: it fails the check as the notebook's setup cell shows it, its type
    and message and the check's line (here: "a line of the check")."""
    args = {name: env[name] for name in test.__code__.co_varnames[:test.__code__.co_argcount]}
    random.seed(0)  # an answer that draws from a global generator fails alike on every run
    np.random.seed(0)
    torch.manual_seed(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            test(**args)
    except Exception as exc:
        if _raised_in(exc, student_file) or (
                isinstance(exc, AssertionError) and _raised_below_the_check(exc)):
            return f"failed: {type(exc).__name__}: {exc} (raised by a line of the check)"
        if isinstance(exc, AssertionError):
            return f"failed: {exc}" if str(exc) else "an assert without a message"
        return f"{type(exc).__name__}: {exc}"  # any other error is the check's own
    return "passed"


def _raised_below_the_check(exc: BaseException) -> bool:
    """Whether `exc` was raised below the check's own frame (an assert in the student's
    code, or in a library the check called): the notebook then shows its type and the
    check's line, so that a student does not read their own assert's words as the check's."""
    check = exc.__traceback__.tb_next  # this module's frame, then the check's
    return check is not None and check.tb_next is not None


def _raised_in(exc: BaseException, student_file: str | None) -> bool:
    """Whether a frame of `student_file` is on `exc`'s way up."""
    tb = exc.__traceback__
    while student_file and tb is not None:
        if tb.tb_frame.f_code.co_filename == student_file:
            return True
        tb = tb.tb_next
    return False


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_public_checks_fail_readably(assignment_id):
    env = solution_env(assignment_id)
    unreadable = []
    for question, tests in public_tests(assignment_id).items():
        for kind, answer in WRONG_ANSWERS.items():
            wrong = dict(env, **{question: stand_in(question, answer)})
            for test in tests:
                result = outcome(test, wrong)
                if not result.startswith(("passed", "failed: ")):
                    unreadable.append(f"{question} answering {kind}: {test.__name__}: {result}")
    assert not unreadable, "\n".join(unreadable)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_public_checks_pass_the_solution(assignment_id):
    """The harness runs the checks as otter does: the solution passes every one."""
    env = solution_env(assignment_id)
    for question, tests in public_tests(assignment_id).items():
        for test in tests:
            assert outcome(test, env) == "passed", (question, test.__name__)


@pytest.mark.parametrize("assignment_id", BUILDABLE)
def test_demo_asserts_say_what_went_wrong(assignment_id):
    """A demo cell's assert fails with a message, not a bare AssertionError."""
    nb = nbformat.reads(student_notebook(assignment_id).decode(), as_version=4)
    bare = [cell.source.splitlines()[0] for cell in nb.cells if cell.cell_type == "code"
            for node in ast.walk(ast.parse(_python(cell.source)))
            if isinstance(node, ast.Assert) and node.msg is None]
    assert not bare, bare


def _python(source: str) -> str:
    """A cell's source with IPython's magics and shell lines blanked."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())
