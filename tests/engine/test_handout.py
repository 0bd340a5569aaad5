"""Is the notebook as handed out recognised, and set aside for a copy with answers?

A student who uploads the untouched handout gets a message asking whether the right
file was sent (feedback, results.json, the printed summary's note, report.html)
instead of a silent 0. A submission holding the handout beside a copy with answers
(a folder, a zip, or the handout beside the zip the copy's export cell made) is
graded on the copy, with a note. One grading run of hw6 (numpy only) covers them.
"""
from __future__ import annotations

import io
import json
import zipfile

import pytest

from autograder import paths
from autograder.engine import assignment as assignment_mod
from autograder.engine.intake import handout
from tests.conftest import grade

ASSIGNMENT = "hw6_encoder_decoder"
EXAMPLES = paths.EXAMPLES / ASSIGNMENT
HANDOUT = f"{ASSIGNMENT}.ipynb"
COPY = f"{ASSIGNMENT} (1).ipynb"


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("handout")
    subs = root / "subs"
    subs.mkdir()
    untouched = (EXAMPLES / "untouched.ipynb").read_bytes()
    answered = (EXAMPLES / "full_solution.ipynb").read_bytes()
    (subs / "blank.ipynb").write_bytes(untouched)
    (subs / "pair").mkdir()
    (subs / "pair" / HANDOUT).write_bytes(untouched)
    (subs / "pair" / COPY).write_bytes(answered)
    (subs / "zipped.zip").write_bytes(_zip({HANDOUT: untouched, COPY: answered}))
    (subs / "exported").mkdir()
    (subs / "exported" / HANDOUT).write_bytes(untouched)
    (subs / "exported" / "copy_2026_03_01.zip").write_bytes(_zip({COPY: answered}))
    out = root / "out"
    return grade(ASSIGNMENT, subs, out, reports=True), out


def test_the_handout_is_named_as_such(graded):
    """The untouched notebook scores 0 and every place the student and the
    instructor read says it is the notebook as handed out."""
    results, out = graded
    blank = results["blank"]
    assert blank.score == 0 and blank.notes[0] == handout.NOTE
    assert "did you upload the right file?" in (out / "blank" / "feedback.md").read_text()
    assert "did you upload the right file?" in (out / "blank" / "feedback.html").read_text()
    assert "did you upload the right file?" in json.dumps(
        json.loads((out / "blank" / "results.json").read_text()))
    report = (out / "report.html").read_text()
    assert "Notebooks as handed out" in report and "blank" in report


@pytest.mark.parametrize("entry", ["pair", "zipped", "exported"])
def test_the_copy_with_answers_is_graded(graded, entry):
    """Beside the handout (named as the assignment), the copy with answers is graded."""
    results, _ = graded
    result = results[entry]
    assert result.score == pytest.approx(assignment_mod.load(ASSIGNMENT).max_total), result.notes
    assert any("is the notebook as handed out" in n and "was graded instead" in n
               for n in result.notes), result.notes
    assert handout.NOTE not in result.notes


def test_an_answered_notebook_is_not_the_handout():
    cells = json.loads((EXAMPLES / "partial_mistakes.ipynb").read_text())["cells"]
    assert not handout.is_handout(cells, ASSIGNMENT)
    cells = json.loads((EXAMPLES / "untouched.ipynb").read_text())["cells"]
    assert handout.is_handout(cells, ASSIGNMENT)
    extra = [*cells, {"cell_type": "code", "source": "def xavier_uniform(a, b, rng):\n    return 1"}]
    assert not handout.is_handout(extra, ASSIGNMENT)
