"""Are hidden tests fair classifiers?

Every file in tests/corpus/<assignment>/correct/ is a correct solution written
differently from the reference: it must get full marks. Every file in
buggy/ is a typical mistake, declared by its first line `# question: <stub>`:
it must lose points on that question and keep full marks on all others.
Each variant is the reference solution plus the variant's source as a
second cell, graded through the real engine, one batch per assignment.
The same batch holds a notebook whose every answer raises ValueError: it must
score 0 (points for rejecting bad input count only when valid input works).
"""
from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from autograder import protocol
from autograder.engine import assignment as assignment_mod
from tests import leaks
from tests.conftest import grade, write_notebook

CORPUS = Path(__file__).parent / "corpus"
HEADER = re.compile(r"#\s*question:\s*(\w+)")


def variants():
    for path in sorted(CORPUS.glob("*/*/*.py")):
        kind = path.parent.name
        if kind in ("correct", "buggy"):
            yield pytest.param(path.parent.parent.name, kind, path,
                               id=f"{path.parent.parent.name}/{kind}/{path.stem}")


class Graded:
    """Each assignment's whole corpus graded once, and every string the grader
    sent its workers meanwhile (but the notebooks' own cells)."""

    def __init__(self, tmp_path_factory):
        self.tmp = tmp_path_factory
        self.cache: dict = {}
        self.texts: dict[str, list[str]] = {}

    def __call__(self, assignment_id: str, kind: str, path: Path):
        if assignment_id not in self.cache:
            self._grade(assignment_id)
        a, results = self.cache[assignment_id]
        return a, results[f"{kind}__{path.stem}"]

    def sent(self, assignment_id: str) -> list[str]:
        if assignment_id not in self.cache:
            self._grade(assignment_id)
        return self.texts[assignment_id]

    def _grade(self, assignment_id: str) -> None:
        root = self.tmp.mktemp(assignment_id)
        subs = root / "subs"
        subs.mkdir()
        a = assignment_mod.load(assignment_id)
        reference = inspect.getsource(a.reference)
        for p in sorted((CORPUS / assignment_id).glob("*/*.py")):
            write_notebook(subs / f"{p.parent.name}__{p.stem}.ipynb", [reference, p.read_text()])
        write_notebook(subs / "raises__everywhere.ipynb", [raise_everywhere(reference)])
        texts = self.texts.setdefault(assignment_id, [])
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(protocol, "send_frame", _recording(protocol.send_frame, texts))
            self.cache[assignment_id] = (a, grade(assignment_id, subs, root / "out"))


def _recording(send_frame, texts: list[str]):
    """send_frame, keeping every string of every request but the notebook's cells."""
    def send(sock, header, buffers=()):
        if header.get("op") != "run_cell":
            texts.extend(_strings(header))
        return send_frame(sock, header, buffers)
    return send


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return Graded(tmp_path_factory)


def raise_everywhere(reference: str) -> str:
    """A notebook cell defining every function and class of the reference so
    that calling it raises ValueError."""
    raises = "raise ValueError('no answer')"
    cells = []
    for node in ast.parse(reference).body:
        if isinstance(node, ast.FunctionDef):
            cells.append(f"def {node.name}(*args, **kwargs):\n    {raises}\n")
        elif isinstance(node, ast.ClassDef):
            cells.append(f"class {node.name}:\n    def __init__(self, *args, **kwargs):\n"
                         f"        {raises}\n")
    return "\n\n".join(cells)


@pytest.mark.parametrize("assignment_id", sorted(p.name for p in CORPUS.iterdir() if p.is_dir()))
def test_answers_that_all_raise_score_zero(graded, assignment_id):
    """No test pays for an exception alone: rejecting bad input counts only with valid input working."""
    a, result = graded(assignment_id, "raises", Path("everywhere"))
    passed = [f"{t.question}::{t.name}" for t in result.tests if t.score > 0]
    assert result.score == 0 and not passed, passed


@pytest.mark.parametrize("assignment_id", sorted(p.name for p in CORPUS.iterdir() if p.is_dir()))
def test_no_reference_code_is_sent_into_workers(graded, assignment_id):
    """Whatever a worker receives is the student's: no line of any reference
    solution (but those the student notebooks show) is ever in a request."""
    sent = graded.sent(assignment_id)
    a, _ = graded(assignment_id, "raises", Path("everywhere"))
    assert sent and leaks.leaked(inspect.getsource(a.reference))  # the check can fail
    found = {line for text in sent for line in leaks.leaked(text)}
    assert not found, sorted(found)[:5]


@pytest.mark.parametrize("assignment_id, kind, path", list(variants()))
def test_variant(graded, assignment_id, kind, path):
    a, result = graded(assignment_id, kind, path)
    scores = result.question_scores(a.questions)
    failed = {f"{t.question}::{t.name}": t.output
              for t in result.tests if t.status == "failed"}
    if kind == "correct":
        assert result.score == a.max_total, f"a correct variant lost points: {failed}"
        return
    m = HEADER.match(path.read_text().splitlines()[0])
    assert m, f"{path}: first line must be '# question: <stub>'"
    question = m.group(1)
    assert question in a.questions, f"{path}: unknown question {question}"
    assert scores[question] < a.config.max_points(question), \
        f"the mistake was not caught on {question}"
    others = {q: s for q, s in scores.items()
              if q != question and s < a.config.max_points(q)}
    assert not others, f"the mistake also cost points on {others}: {failed}"


def test_corpus_covers_every_question():
    """Each question of each assignment with a corpus has at least one mistake."""
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        a = assignment_mod.load(folder.name)
        hit = {HEADER.match(p.read_text().splitlines()[0]).group(1)
               for p in (folder / "buggy").glob("*.py")}
        assert set(a.questions) <= hit, f"{folder.name}: no mistake for {set(a.questions) - hit}"
        assert list((folder / "correct").glob("*.py")), f"{folder.name}: no correct variant"
