"""Every assignment's hidden tests pass their own audit: each one-change mutant of
every graded stub is killed on its own question, or declared equivalent (or an
accepted cascade) in autograder/<id>/mutants.toml with a reason; the corpus is
graded as its headers say; no test raises on the grader's side; no declaration is
stale. This is `python -m autograder audit ID` for all of them, in CI.

A new blind spot (a test weakened, a stub whose tests miss a mutant) fails here
with the mutant's id; `python -m autograder audit ID` shows its diff.

Only hw1's audit grades the corpus too, as `audit ID` does: every corpus variant is
graded by tests/assignments/test_corpus.py, which asserts what the audit asserts of
it (a correct variant loses nothing, a mistake fails exactly its declared tests, no
test raises on the grader's side) and more, so the other audits grade the mutants
only instead of grading each corpus a second time."""
from __future__ import annotations

import pytest

from autograder import registry
from autograder.audit import run

pytestmark = pytest.mark.slow


WITH_CORPUS = "hw1_attention"


MINUTES = {"hw6_encoder_decoder": 4}
"""The audits that take longer than a minute on one worker (sample_next's tests draw
thousands of ids for each of hw6's 129 mutants): tests/conftest.py starts them first."""


@pytest.fixture(scope="module", params=[pytest.param(i, marks=pytest.mark.slow(minutes=MINUTES.get(i, 1)))
                                        for i in registry.ids()])
def audited(request):
    return run.audit(request.param, progress=False, with_corpus=request.param == WITH_CORPUS)


def test_no_undeclared_survivor_cascade_or_fragile_test(audited):
    problems = audited.problems
    if audited.assignment.id == WITH_CORPUS:  # `audit ID` as instructors run it
        assert audited.variants, "the corpus was not judged"
    assert not problems, (f"{audited.assignment.id}: {len(problems)} problem(s); run "
                          f"`python -m autograder audit {audited.assignment.id}`:\n  "
                          + "\n  ".join(problems))


def test_every_graded_stub_is_audited(audited):
    """Each graded stub (a question whose tests call `student.NAME`) gave mutants and
    the tests kill some of them: a stub the mutator cannot reach would pass the audit
    by having nothing to judge."""
    record = registry.get(audited.assignment.id)
    for question in run.graded_stubs(record, audited.assignment.questions):
        counts = audited.count(question)
        assert counts["killed"] > 0, (question, counts)


def test_declarations_are_not_stale(audited):
    assert not audited.stale, audited.stale


def test_every_assumption_variant_is_graded_and_bites(audited):
    """Every stub's assumption variants were graded (none broke on its own), a wrong
    shape loses points somewhere, and where the lesson's rank is declared ([lesson] in
    mutants.toml) a test calls the stub with another: an audit whose variants never
    lose anything would pass by judging nothing."""
    assert audited.assumptions
    assert not [a.assumption.id for a in audited.assumptions if a.error]
    assert any(a.shortfall for a in audited.assumptions if a.assumption.kind == "shape")
    unexercised = [a.assumption.id for a in audited.assumptions
                   if a.assumption.kind == "rank" and not a.shortfall]
    assert not unexercised, unexercised
