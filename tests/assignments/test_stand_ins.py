"""Do tests judged on the student's own answers pay for doing nothing?

A test whose subject is compared with the student's own answers (ignored
positions, stopping after eos, rng use) must not pay a stand-in that returns
a constant, its input, nan or nothing at all, or one that skips the stub's
work (an attention that never compares queries with keys): such an answer
earns only the tests declared about its format (type and shape, @format_test),
which it gets right. Hand-written stand-ins for every stub of hw1, hw3, hw5 and
hw6, and plausible ones (they change with their inputs, or answer nan) for some
stubs of every assignment, graded through the real engine; each lives with its
assignment's corpus, tests/assignments/corpus/<id>/stand_ins/<name>.py (every_stub.py
for every stub), its header holding a `# right by chance: question::test` line for
each test of values it answers right. (The generic ones,
None, raising, the input, zeros and ones, are build's: autograder/build/stand_ins.py.)
"""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from autograder import registry
from autograder.build import stand_ins
from autograder.checks import is_format_test
from autograder.engine import assignment as assignment_mod

# Heavy (grades the stand-ins of every stub): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

EVERY_STUB = "every_stub"
"""tests/assignments/corpus/<id>/stand_ins/every_stub.py stands in for every stub; each
other file there for some stubs, looking like work (they change with their inputs):
graded after the reference, on the tests of the stubs they define only."""
RIGHT_BY_CHANCE = re.compile(r"#\s*right by chance:\s*(\S+)\s*$")
"""A stand-in's header line naming a test of values (not a declared format test) that
it answers right, "question::test" (the reason on the comment lines after it)."""


def _stand_ins() -> dict[tuple[str, str], Path]:
    """{(assignment, name): file} of every stand-in in the corpus."""
    return {(a, path.stem): path for a in registry.ids()
            for path in sorted((registry.get(a).corpus / "stand_ins").glob("*.py"))}


def _right_by_chance(path: Path) -> set[str]:
    """The tests its header says the stand-in answers right by chance."""
    found = set()
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        m = RIGHT_BY_CHANCE.match(line)
        found |= {m.group(1)} if m else set()
    return found


def allowed(assignment_id: str, path: Path) -> set[str]:
    """The tests a stand-in may earn: those declared about the answer's format
    (autograder.testing.format_test, as build reads them), and those its header says
    it answers right by chance."""
    return {c.id for c in assignment_mod.load(assignment_id).cases
            if is_format_test(c.collected.func)} | _right_by_chance(path)


@pytest.mark.parametrize("assignment_id", sorted(a for a, name in _stand_ins() if name == EVERY_STUB))
def test_stand_ins_earn_only_format_points(grade_notebooks, assignment_id):
    path = _stand_ins()[assignment_id, EVERY_STUB]
    a = assignment_mod.load(assignment_id)
    result = grade_notebooks(assignment_id, {"stand_in": [inspect.getsource(a.reference),
                                                      path.read_text()]})["stand_in"]
    earned = {f"{t.question}::{t.name}" for t in result.tests if t.score > 0}
    assert earned, "every stand-in here answers some format test right"  # graded at all
    assert earned <= allowed(assignment_id, path), sorted(earned - allowed(assignment_id, path))


@pytest.mark.parametrize("assignment_id, name", sorted(k for k in _stand_ins() if k[1] != EVERY_STUB))
def test_plausible_stand_ins_earn_only_format_points(grade_notebooks, assignment_id, name):
    path = _stand_ins()[assignment_id, name]
    source = path.read_text()
    a = assignment_mod.load(assignment_id)
    defined = stand_ins.defined([source]) & set(a.questions)
    result = grade_notebooks(assignment_id, {"stand_in": [inspect.getsource(a.reference),
                                                      source]})["stand_in"]
    earned = {f"{t.question}::{t.name}" for t in result.tests
              if t.score > 0 and t.question in defined}
    assert defined and earned, "every stand-in here answers some format test right"
    assert earned <= allowed(assignment_id, path), sorted(earned - allowed(assignment_id, path))


def test_right_by_chance_names_a_test():
    """Each test a stand-in's header says it answers right by chance is a test of its
    assignment, and not a format test (which it may earn anyway)."""
    wrong = []
    for (assignment_id, name), path in _stand_ins().items():
        cases = {c.id: c for c in assignment_mod.load(assignment_id).cases}
        wrong += [f"{assignment_id}/{name}: {test}" for test in _right_by_chance(path)
                  if test not in cases or is_format_test(cases[test].collected.func)]
    assert not wrong, wrong

