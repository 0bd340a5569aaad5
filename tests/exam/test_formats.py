"""Do the exam's public format checks and its hidden tests accept the same answers?

One definition (autograder/exam/formats.py) says which values each short
answer accepts; build copies it into the notebook's public checks and the
hidden tests read what the worker sends back with it. Here both sides see the
same answers, written the way students compute them (torch.Size, numpy
scalars, 0-d tensors, lists, ints for floats) and wrongly (strings, sets,
floats in a shape, out of range): the public check passes exactly when the
hidden format test does, and a right value in any accepted type gets full
marks on its question.
"""
from __future__ import annotations

import nbformat
import numpy as np
import pytest
import torch

from tests.build import test_public_checks as public_checks
from tests.exam.answers import right_answers
from tests.conftest import grade

RIGHT = {  # name -> expressions of the right value `v` a student may write
    "ENCODER_LAYER_PARAMS": ["v", "np.int64(v)", "float(v)", "torch.tensor(v)", "np.array(v)"],
    "CROSS_ATTENTION_SHAPE": ["torch.Size(v)", "tuple(v)", "list(v)", "np.array(v)",
                              "torch.tensor(v)", "tuple(np.int64(x) for x in v)",
                              "torch.zeros(v).shape"],
    "MASK_FRACTION": ["v", "np.float32(v)", "torch.tensor(v, dtype=torch.float64)",
                      "np.array(v)"],
    "CHANCE_LOSS": ["v", "np.float64(v)", "torch.tensor(v, dtype=torch.float64)"],
    "CHANCE_PERPLEXITY": ["v", "np.float64(v)", "torch.tensor(v, dtype=torch.float64)"],
}
WRONG = {  # name -> expressions no format accepts
    "ENCODER_LAYER_PARAMS": ["str(v)", "True", "-v", "v + 0.5", "None", "...", "[v]"],
    "CROSS_ATTENTION_SHAPE": ["tuple(float(x) for x in v)", "set(v)", "str(v)", "()",
                              "(0,) + tuple(v)", "None", "...", "{'shape': v}"],
    "MASK_FRACTION": ["1.5", "-0.1", "float('nan')", "str(v)", "[v]", "None", "True"],
    "CHANCE_LOSS": ["-1.0", "str(v)", "None", "float('inf')"],
    "CHANCE_PERPLEXITY": ["0.5", "str(v)", "None"],
}
QUESTION = {"ENCODER_LAYER_PARAMS": "encoder_params", "CROSS_ATTENTION_SHAPE": "cross_attention_shape",
            "MASK_FRACTION": "mask_fraction", "CHANCE_LOSS": "chance_level",
            "CHANCE_PERPLEXITY": "chance_level"}
CASES = [(name, expr, True) for name, exprs in RIGHT.items() for expr in exprs] + \
        [(name, expr, False) for name, exprs in WRONG.items() for expr in exprs]


def answers_source(sid: str, name: str, expr: str) -> str:
    """A notebook cell: every answer right, `name` written as `expr` of its right value."""
    right = right_answers(sid)
    lines = ["import numpy as np", "import torch", f"STUDENT_ID = {sid!r}"]
    for answer, value in right.items():
        lines.append(f"{answer} = {value!r}")
    lines.append(f"v = {right[name]!r}\n{name} = {expr}\ndel v")
    return "\n".join(lines)


def public_passes(question: str, namespace: dict) -> bool:
    """The notebook's public check of `question` (as otter runs it) on these answers."""
    [test] = public_checks.public_tests("exam_midterm")[question]
    names = test.__code__.co_varnames[:test.__code__.co_argcount]
    return public_checks.outcome(test, {n: namespace[n] for n in names}) == "passed"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every case graded in one batch; {sid: result}."""
    root = tmp_path_factory.mktemp("formats")
    subs = root / "subs"
    subs.mkdir()
    for i, (name, expr, _) in enumerate(CASES):
        sid = f"s{3000 + i}"
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(answers_source(sid, name, expr))]
        nbformat.write(nb, str(subs / f"{sid}.ipynb"))
    return grade("exam_midterm", subs, root / "out")


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{n}={e}" for n, e, _ in CASES])
def test_public_and_hidden_checks_agree(graded, i):
    name, expr, right = CASES[i]
    sid = f"s{3000 + i}"
    namespace = {"np": np, "torch": torch}
    exec(answers_source(sid, name, expr), namespace)
    question = QUESTION[name]
    public = public_passes(question, namespace)
    result = graded[sid]
    hidden = {t.name: t for t in result.tests if t.question == question}
    assert public is right, (expr, "public check")
    assert (hidden["test_answer_format"].status == "passed") is public, \
        hidden["test_answer_format"].output
    scores = result.question_scores([question])
    full = sum(t.max_score for t in hidden.values())
    assert (scores[question] == full) is right, [t.output for t in hidden.values()]
