"""Are the hidden tests fair classifiers?

Every file in tests/assignments/corpus/<assignment>/correct/ is a correct solution written
differently from the reference: it must get full marks. Every file in
buggy/ is a typical mistake, declared by its header (tests/assignments/corpus_tools.py):

    # question: <stub>
    # fails: <test>, <test>, ...

It must fail exactly the listed tests of that question, the properties it
breaks, and nothing more: a mistake that fails a test about another property
is a defect of the tests (fix the tests, not the list). What each mistake
fails and costs now: scripts/corpus_failures.py. Each variant is the reference
solution plus the variant's source as a second cell, graded through the real
engine, one batch per assignment; no cell may raise (the reference's definitions
would stand in for the variant's). The same batch holds a notebook whose every
answer raises ValueError: it must score 0 (points for rejecting bad input count
only when valid input works); and every request the grader sends a worker is
recorded: none may hold a line of a reference solution.
"""
from __future__ import annotations

import inspect

import pytest

from autograder.engine import assignment as assignment_mod
from tests.assignments import corpus_tools
from tests.security import leaks
from tests.assignments.corpus_tools import CORPUS

# Heavy (grades every corpus variant of every assignment): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

ASSIGNMENTS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())


def variants():
    for path in corpus_tools.variants():
        assignment_id, kind = path.parent.parent.name, path.parent.name
        yield pytest.param(assignment_id, kind, path, id=f"{assignment_id}/{kind}/{path.stem}")


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_answers_that_all_raise_score_zero(graded, assignment_id):
    """No test pays for an exception alone: rejecting bad input counts only with valid input working."""
    result = graded.raising(assignment_id)
    passed = [f"{t.question}::{t.name}" for t in result.tests if t.score > 0]
    assert result.score == 0 and not passed, passed


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_grading_draws_from_the_global_rngs_only_under_their_lock(graded, assignment_id):
    """Grading threads share torch's and numpy's global RNGs: a draw of one (a sign's
    replay building a module) in the middle of another's seeded reference gave hw4's
    whole batch a wrong reference head, and its correct submissions 15/16."""
    assert graded.unlocked_draws(assignment_id) == 0


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_no_reference_code_is_sent_into_workers(graded, assignment_id):
    """Whatever a worker receives is the student's: no line of any reference
    solution (but those the student notebooks show) is ever in a request."""
    sent = graded.sent(assignment_id)
    reference = inspect.getsource(assignment_mod.load(assignment_id).reference)
    assert sent and leaks.leaked(reference)  # the check can fail
    found = {line for text in sent for line in leaks.leaked(text)}
    assert not found, sorted(found)[:5]


@pytest.mark.parametrize("assignment_id, kind, path", list(variants()))
def test_variant(graded, assignment_id, kind, path):
    a, result = graded(assignment_id, path)
    failed = corpus_tools.failed_tests(result)
    outputs = {f"{t.question}::{t.name}": t.output
               for t in result.tests if t.status == "failed"}
    fragile = [f"{t.question}::{t.name} ({t.grader_error})" for t in result.needs_regrade]
    assert not fragile, f"tests that raised on the grader's side (points withheld): {fragile}"
    # a variant's cell that raises leaves the reference's definitions in place: graded
    # as the reference, a broken variant would pass for a correct one
    raised = [note for note in result.notes if note.startswith("cell ") and " raised " in note]
    assert not raised, f"a cell of the variant raised: {raised}"
    if kind == "correct":
        assert result.score == a.max_total, f"a correct variant lost points: {outputs}"
        return
    head = corpus_tools.declared(path)
    assert head.question in a.questions, f"{path}: first line must be '# question: <stub>'"
    assert head.fails, f"{path}: second line must be '# fails: <test>, ...' (non-empty)"
    unknown = [n for n in head.fails if n not in a.config.tests[head.question]]
    assert not unknown, f"{path}: {unknown} are not tests of {head.question}"
    assert sorted(f"{q}::{n}" for q, n in failed) == \
        sorted(f"{head.question}::{n}" for n in head.fails), \
        f"declared {list(head.fails)}; failed now: {outputs}"


def test_corpus_covers_every_question():
    """Each question of each assignment with a corpus has at least one mistake."""
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        a = assignment_mod.load(folder.name)
        hit = {corpus_tools.declared(p).question for p in (folder / "buggy").glob("*.py")}
        assert set(a.questions) <= hit, f"{folder.name}: no mistake for {set(a.questions) - hit}"
        assert list((folder / "correct").glob("*.py")), f"{folder.name}: no correct variant"


def test_headers_are_read(tmp_path):
    """A header's fails line is read as its list; a file without one declares none."""
    with_list = tmp_path / "a.py"
    with_list.write_text("# question: f\n# fails: test_x, test_y\nx = 1\n")
    without = tmp_path / "b.py"
    without.write_text("# question: f\n# no list here\n")
    assert corpus_tools.declared(with_list) == corpus_tools.Declared("f", ("test_x", "test_y"))
    assert corpus_tools.declared(without) == corpus_tools.Declared("f", None)


def test_split_is_read(tmp_path):
    """`# split: measure` among the opening comments puts a variant, buggy or correct, in
    the measuring part; without it, or further down, it is in the tuning part."""
    buggy = tmp_path / "a.py"
    buggy.write_text("# question: f\n# fails: test_x\n# public: -\n# split: measure\n"
                     "# source: someone/repo, f.py\nx = 1\n")
    correct = tmp_path / "b.py"
    correct.write_text("# split: measure\nx = 1\n")
    late = tmp_path / "c.py"
    late.write_text("# question: f\n# fails: test_x\nx = 1\n# split: measure\n")
    assert corpus_tools.declared(buggy) == corpus_tools.Declared("f", ("test_x",), (), "measure")
    assert corpus_tools.declared(correct).split == corpus_tools.MEASURE
    assert corpus_tools.declared(late).split == corpus_tools.TUNE
    typo = tmp_path / "d.py"
    typo.write_text("# split: measured\nx = 1\n")
    with pytest.raises(ValueError):
        corpus_tools.declared(typo)


def test_labels_are_read(tmp_path):
    """`# diagnosis:`, `# ambiguous:` and `# makes:` among the opening comments give the
    mistakes a variant makes (`# makes: -`, none); further down they are code's comments."""
    ours = tmp_path / "a.py"
    ours.write_text("# question: f\n# fails: test_x\n# public: -\n# diagnosis: twos, threes\n"
                    "# why it is both\nx = 1\n")
    unnamed = tmp_path / "b.py"
    unnamed.write_text("# question: f\n# fails: test_x\n# ambiguous: twos\n# a reason\nx = 1\n")
    public = tmp_path / "c.py"
    public.write_text("# question: f\n# fails: test_x\n# makes: -\n# split: measure\nx = 1\n")
    late = tmp_path / "d.py"
    late.write_text("# question: f\n# fails: test_x\nx = 1\n# diagnosis: twos\n")
    assert corpus_tools.declared(ours) == corpus_tools.Declared(
        "f", ("test_x",), (), diagnoses=("twos", "threes"))
    assert corpus_tools.declared(unnamed).ambiguous == corpus_tools.declared(unnamed).made == ("twos",)
    assert corpus_tools.declared(public).makes == ()
    assert corpus_tools.declared(public).split == corpus_tools.MEASURE
    assert corpus_tools.declared(late).made == () and corpus_tools.declared(late).makes is None
    twice = tmp_path / "e.py"
    twice.write_text("# diagnosis: twos\n# diagnosis: threes\nx = 1\n")
    with pytest.raises(ValueError):
        corpus_tools.declared(twice)
