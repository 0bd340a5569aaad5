"""Does one odd submission cost at most its own row or section of a report?

The report stage works from what grading kept of each notebook (never reading
a submission again), and the work for one entry that fails is named in its
place while every other entry is written.
"""
from __future__ import annotations

import csv
import inspect
import json

from autograder import grade as pipeline
from autograder.engine import assignment as assignment_mod
from autograder.engine import batch as batch_mod
from autograder.engine.intake import kept_cells
from autograder.engine.intake.notebook import parse_cells
from autograder.engine.results import SubmissionResult
from autograder.course import lateness
from autograder.report import answers, similarity
from autograder.report import run as report_run
from tests.conftest import FAST_LIMITS, write_notebook

ID = "hw1_attention"
DEEP = 980
"""JSON nesting that grading parses and that, read again a few frames deeper by the
reports, raised RecursionError (similarity.html "could not be written" for everyone)."""


def reference() -> str:
    return inspect.getsource(assignment_mod.load(ID).reference)


def test_reports_never_read_a_submission_again(tmp_path):
    """With every submission overwritten once graded, are the answers still compared
    (from what grading kept) and every report written, an odd notebook included?"""
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("ada", "bob"):
        write_notebook(subs / f"{name}.ipynb", [reference()])
    deep = write_notebook(subs / "deep.ipynb", [reference()])
    deep.write_text(deep.read_text().replace(
        '"metadata": {}', '"metadata": {"x": %s%s}' % ("[" * DEEP, "]" * DEEP), 1))
    text_version = json.loads(write_notebook(subs / "text.ipynb", [reference()]).read_text())
    (subs / "text.ipynb").write_text(json.dumps({**text_version, "nbformat": "4"}))
    out = tmp_path / "out"
    graded = batch_mod.grade_folder(ID, subs, out, progress=False, limits=FAST_LIMITS)
    for notebook in subs.iterdir():
        notebook.write_text("gone")
    lines = pipeline.report_stage(graded, report_run.prepare(out))
    assert not [line for line in lines if "could not" in line], lines
    page = (out / "similarity.html").read_text()
    assert "The answers of 3 graded submissions" in page
    assert "ada &amp; bob" in page and "bob &amp; deep" in page
    scores = {r.submission: r.score for r in graded.results}
    assert scores == {"ada": 18, "bob": 18, "deep": 18, "text": 0}


def _result(sid: str, cells: list[dict]) -> SubmissionResult:
    return SubmissionResult(sid, ID, cells=cells)


def test_one_submission_whose_answers_fail_costs_its_place_only(tmp_path, monkeypatch):
    """A fault of the grader on one submission's answers: that submission is named on the
    page as not compared, and the others' copy is still flagged."""
    raw = write_notebook(tmp_path / "nb.ipynb", [reference()]).read_bytes()
    cells = kept_cells.keep(parse_cells(raw))
    results = [_result(sid, cells) for sid in ("ada", "bad", "bob")]
    taken = answers.of_result

    def of_result(result, *args):
        if result.submission == "bad":
            raise RecursionError("maximum recursion depth exceeded")
        return taken(result, *args)
    monkeypatch.setattr(answers, "of_result", of_result)
    batch = batch_mod.Batch(assignment_mod.load(ID), tmp_path, results=results)
    line = similarity.write(tmp_path / "similarity.html", batch)
    page = (tmp_path / "similarity.html").read_text()
    assert "could not be taken" in page and "bad (RecursionError)" in page
    assert "ada &amp; bob" in page and "bad &amp;" not in page and "&amp; bad" not in page
    assert "1 pair of submissions" in line


def test_one_submission_whose_timing_fails_costs_its_row_only(tmp_path, monkeypatch):
    """A fault on one submission's time: a warning names it, it is shown on time, and
    the gradebook, feedback and every other report are written for everyone."""
    a = assignment_mod.load(ID)
    results = [_result(sid, []) for sid in ("ada", "bad", "bob")]
    timing = lateness.timing

    def broken(result, *args):
        if result.submission == "bad":
            raise TypeError("'<' not supported between instances of 'str' and 'int'")
        return timing(result, *args)
    monkeypatch.setattr(lateness, "timing", broken)
    batch = batch_mod.Batch(a, tmp_path, results=results)
    lines = report_run.write_all(batch, report_run.Prepared())
    assert any("could not be read" in line and "bad" in line for line in lines), lines
    assert not [line for line in lines if "could not be written" in line], lines
    with open(tmp_path / "gradebook.csv", newline="") as f:
        assert [r["submission"] for r in csv.DictReader(f)] == ["ada", "bad", "bob"]
    assert all((tmp_path / sid / "feedback.md").is_file() for sid in ("ada", "bad", "bob"))


def test_one_gradebook_row_that_fails_costs_that_row_only(monkeypatch):
    """A row whose cells cannot be made: gradebook.csv keeps its place with a note,
    canvas.csv leaves it out (an import must not guess), the others are written."""
    from autograder.report import gradebook
    name = gradebook.Row.name

    def broken(row):
        if row.result.submission == "bad":
            raise TypeError("a fault of the grader")
        return name.fget(row)
    monkeypatch.setattr(gradebook.Row, "name", property(broken))
    rows = [gradebook.Row(None, _result(sid, []), None, "") for sid in ("ada", "bad", "bob")]
    book = list(csv.DictReader(gradebook.gradebook_csv(rows, 18.0).splitlines()))
    assert [r["submission"] for r in book] == ["ada", "bad", "bob"]
    assert book[1]["note"].startswith("this row could not be written (TypeError")
    canvas = gradebook.canvas_csv(rows, "Demo", 18.0).splitlines()
    assert [line.split(",")[3] for line in canvas[2:]] == ["ada", "bob"]
