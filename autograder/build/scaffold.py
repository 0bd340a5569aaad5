"""`python -m autograder new ID`: a working skeleton of a new assignment.

It writes the five places an assignment lives (docs/authoring.md), each
holding one question, `softmax`, so that `build ID` and `grade ... --assignment
ID` work at once and the author edits from something that runs:

    solutions/ID/ID.py               master: prose, the stub with its solution, a public check
    autograder/ID/__init__.py        the package of its hidden tests
    autograder/ID/reference.py       the reference solution
    autograder/ID/test_softmax.py    one hidden test
    autograder/ID/examples.py        demo submissions: full marks and untouched (0)
    grading_config/ID.toml           the points (the only place they live), limits, seed

What must stay true: nothing existing is overwritten (an id already used
anywhere is refused before any file is written), and the id is a name the
package can import.
"""
from __future__ import annotations

import keyword
import re
import sys
from pathlib import Path
from string import Template

from autograder import paths, registry

VALID_ID = re.compile(r"[a-z][a-z0-9_]{0,63}")

MASTER = Template('''\
# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [raw]
# # ASSIGNMENT CONFIG
# init_cell: true
# check_all_cell: true
# export_cell:
#   pdf: false
#   instructions: "Run this cell to make a zip of your notebook, then upload the zip (or the .ipynb)."
# generate: false
# run_tests: false
# tests:
#   files: false
#   ok_format: false

# %% [markdown]
# # $title
#
# Replace every `...` in the answer cells and keep the names and signatures
# as they are: the autograder calls them by name. `grader.check("<name>")`
# runs a few public checks; the autograder runs many more after you submit.

# %%
import numpy as np

# %% [raw]
# # BEGIN QUESTION
# name: softmax

# %% [markdown]
# **Question 1.** Write `softmax(x)`: the softmax over the last axis of an
# array `x`, as float64, finite even when `x` holds values in the thousands.

# %% [raw]
# # BEGIN SOLUTION

# %%
def softmax(x):
    """Softmax over the last axis.

    Args:
        x: an array of any shape.

    Returns:
        A float64 array of x's shape whose rows (last axis) sum to 1.
    """
    # BEGIN SOLUTION
    z = np.asarray(x, dtype=np.float64)
    z = z - z.max(axis=-1, keepdims=True)  # the same result, and exp cannot overflow
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_softmax_rows_sum_to_one(softmax, np):
    p = softmax(np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
    assert np.allclose(p.sum(axis=-1), 1.0), "each row of softmax(x) should sum to 1"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION
''')

PACKAGE_INIT = Template('''\
"""$id: hidden tests and reference solution (never shipped to students)."""
''')

REFERENCE = Template('''\
"""Reference solution of $id: what the hidden tests compare with."""
import numpy as np


def softmax(x):
    """Softmax over the last axis, computed stably."""
    z = np.asarray(x, dtype=np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''')

HIDDEN_TEST = Template('''\
"""Hidden tests: softmax (points and visibility in grading_config/$id.toml).

Run them against one notebook as pytest does:
    pytest autograder/$id --notebook examples/$id/full_solution.ipynb
"""
import numpy as np
import pytest

from autograder.testing import expect_close

QUESTION = "softmax"


@pytest.fixture
def rng():
    """The same inputs for every submission."""
    return np.random.default_rng(0)


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 6)], ids=["vector", "matrix", "batch"])
def test_values(student, ref, rng, shape):
    """matches the reference"""
    x = rng.normal(0.0, 3.0, size=shape)
    expect_close(student.softmax(x), ref.softmax(x), f"softmax(x of shape {shape})")


def test_large_scores(student, ref):
    """matches the reference for scores in the thousands"""
    large = np.array([1000.0, 1001.0, 999.0])
    expect_close(student.softmax(large), ref.softmax(large), "softmax of scores near 1000")
''')

EXAMPLES = Template('''\
"""Demo submissions of $id in examples/$id/, made by `build`:

    full_solution.ipynb     the solution's answers       full marks
    untouched.ipynb         the notebook as handed out   0
"""
from autograder.build.examples import answers_of, fill, serialise


def variants(student, solution) -> dict[str, bytes]:
    return {"full_solution.ipynb": serialise(fill(student, answers_of(solution))),
            "untouched.ipynb": serialise(student)}
''')

CONFIG = Template('''\
# Grading configuration of $id: the points of each hidden test (the only
# place points live: build writes them into the student notebook), their
# visibility, and the limits of the student's worker.

[assignment]
title = "$title"
preload = ["numpy"]   # imported once by the template process
seed = 0              # random/numpy/torch seed before the notebook and each test

[submit]
to = "Gradescope"       # where the submit cell says to hand in: Gradescope, Canvas or an http(s) URL

[limits]
notebook_seconds = 60   # all code cells together
call_seconds = 10       # one call into the student's code

[tests.softmax]
test_values = 1.5        # parametrized: split evenly over its 3 cases (or give each "test_values[vector]")
test_large_scores = 0.5
''')


def files_for(assignment_id: str, title: str) -> dict[Path, str]:
    """Every file of the skeleton and its text."""
    values = {"id": assignment_id, "title": title}
    record = registry.get(assignment_id)
    package = record.hidden_tests
    return {record.master: MASTER.substitute(values),
            package / "__init__.py": PACKAGE_INIT.substitute(values),
            package / "reference.py": REFERENCE.substitute(values),
            package / "test_softmax.py": HIDDEN_TEST.substitute(values),
            package / "examples.py": EXAMPLES.substitute(values),
            record.config: CONFIG.substitute(values)}


def refusal(assignment_id: str, title: str) -> str | None:
    """Why this id (or title) cannot be used; None when it can."""
    if not VALID_ID.fullmatch(assignment_id) or keyword.iskeyword(assignment_id):
        return (f"{assignment_id!r} is not a usable id: lower-case letters, digits and _, "
                "starting with a letter (it names a Python package), e.g. hw7_layernorm")
    record = registry.get(assignment_id)
    taken = [p for p in (record.master.parent, record.hidden_tests,
                         paths.PACKAGE / f"{assignment_id}.py", record.config)
             if p.exists()]
    if taken:
        return f"{assignment_id} exists already ({paths.relative(taken[0])}); nothing was written"
    if '"' in title or "\\" in title or "\n" in title:
        return "the title may not hold quotes, backslashes or line breaks"
    return None


def main(*, assignment_id: str, title: str | None = None) -> int:
    title = title or f"{assignment_id}: a new assignment"
    why = refusal(assignment_id, title)
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    for path, text in files_for(assignment_id, title).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"wrote {paths.relative(path)}")
    print(f"next: python -m autograder build {assignment_id}\n"
          f"      python -m autograder grade examples/{assignment_id} --assignment "
          f"{assignment_id} --out out/{assignment_id}\n"
          "then replace the softmax question with yours (docs/authoring.md)")
    return 0
