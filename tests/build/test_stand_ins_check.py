"""build's stand-in check without a worker: which tests a stand-in's points make a
problem of (autograder.build.selfcheck.stand_in_problems), and what the stand-ins
do (autograder.build.stand_ins), run here on a small reference.
(tests/build/test_scaffold.py has build refuse a stand-in-friendly test end to end.)"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from autograder.build import selfcheck, stand_ins
from autograder.checks import is_format_test
from autograder.testing import format_test


@format_test
def declared_shape(student):
    """returns an array of x's shape"""


def undeclared_shape(student):
    """returns an array of x's shape"""


def rejects_empty(student):
    """raises ValueError for an empty input"""


def _case(question, name, func):
    return SimpleNamespace(question=question, name=name, collected=SimpleNamespace(func=func))


def _result(submission, scores, error=None):
    tests = [SimpleNamespace(question=q, name=n, score=s) for q, n, s in scores]
    return SimpleNamespace(submission=submission, tests=tests, error=error)


def _problems(shape_function):
    cases = [_case("softmax", "test_shape", shape_function),
             _case("softmax", "test_rejects_empty", rejects_empty),
             _case("ANSWER", "test_answer", rejects_empty)]
    results = [_result("solution", [("softmax", "test_shape", 1),
                                    ("softmax", "test_rejects_empty", 1)]),
               _result(selfcheck.STAND_IN + "zeros", [("softmax", "test_shape", 1),
                                                      ("softmax", "test_rejects_empty", 0.5),
                                                      ("ANSWER", "test_answer", 1)]),
               _result(selfcheck.STAND_IN + "raises", [("softmax", "test_shape", 0),
                                                       ("softmax", "test_rejects_empty", 1)])]
    # ANSWER is a short answer (no stub): the stand-ins' notebooks keep the solution's
    return selfcheck.stand_in_problems(results, cases, {"softmax"})


def test_the_format_declaration_exempts_exactly_the_declared_test():
    assert is_format_test(declared_shape) and not is_format_test(undeclared_shape)
    assert declared_shape.__name__ == "declared_shape"  # the test itself, marked
    assert _problems(declared_shape) == [
        f"stand-ins ({stand_ins.SAID['raises']}; {stand_ins.SAID['zeros']}) earn 1 point(s) "
        f"on softmax::test_rejects_empty: {selfcheck.ADVICE}"]
    undeclared = _problems(undeclared_shape)  # the check can fail: undeclared, it is named
    assert len(undeclared) == 2
    assert undeclared[0].startswith("a stand-in answering the right answer with every number "
                                    "made 0 earns 1 point(s) on softmax::test_shape: ")


def test_a_stand_in_that_cannot_be_graded_is_a_problem():
    found = selfcheck.stand_in_problems([_result(selfcheck.STAND_IN + "echo", [], "timed out")],
                                        [], {"softmax"})
    assert found == [f"a stand-in {stand_ins.SAID['echo']} could not be graded: timed out"]


REFERENCE = '''
import numpy as np


def softmax(x):
    z = np.asarray(x, dtype=np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def normalise_in_place(x):
    x /= x.sum()
    return x


def helper():
    return 1
'''


def _stand_in(kind: str) -> dict:
    namespace: dict = {}
    exec(REFERENCE, namespace)
    exec(stand_ins.stand_ins(REFERENCE, ["softmax", "normalise_in_place"])[kind], namespace)
    return namespace


def test_stand_ins_of_each_kind():
    """Only the questions' stubs are replaced; the raising one raises whatever a test of
    bad input expects; zeros and ones keep the right answer's type and shape, computed on
    copies (the stand-in does none of the stub's work on its arguments)."""
    assert stand_ins.stubs(REFERENCE, ["helper_not", "normalise_in_place", "softmax"]) == \
        ["softmax", "normalise_in_place"]
    x = np.array([1.0, 2.0, 3.0])
    assert _stand_in("untouched")["softmax"](x) is None
    assert _stand_in("echo")["softmax"](x) is x
    for error in (ValueError, TypeError, IndexError, KeyError, RuntimeError, NotImplementedError,
                  ZeroDivisionError, AssertionError):
        with pytest.raises(error):
            _stand_in("raises")["softmax"](x)
    for kind, fill in (("zeros", 0.0), ("ones", 1.0)):
        made = _stand_in(kind)
        answer = made["softmax"](x)
        assert answer.dtype == np.float64 and answer.shape == (3,) and (answer == fill).all()
        y = np.array([1.0, 3.0])
        assert (made["normalise_in_place"](y) == fill).all() and y.tolist() == [1.0, 3.0]
        assert made["helper"]() == 1
    assert stand_ins.defined(["def softmax(x):\n    ...", "%timeit softmax(1)", "class A: pass"]) \
        == {"softmax", "A"}
