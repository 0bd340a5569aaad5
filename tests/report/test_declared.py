"""Are the reports one declared list, and does what they declare hold?

Each report writes at the top of DIR only the files it declares; the names
no submission id may take are the declared ones (an exam's from the exam's
own declaration, hooks.BatchReports.FILES); the report stage reads the times
discovery took and the folder the batch was found in, never the folder again.
On hand-made results from real notebooks: fast, no grading.
"""
from __future__ import annotations

import json
import os
import shutil
import types
from datetime import datetime, timezone
from pathlib import Path

import pytest

from autograder import grade as pipeline
from autograder import hooks, paths
from autograder.engine import assignment as assignment_mod
from autograder.engine.batch import Batch
from autograder.engine.intake import kept_cells
from autograder.engine.intake.notebook import parse_cells
from autograder.engine.intake.submissions import discover
from autograder.engine.results import SubmissionResult, write_results_json
from autograder.engine.results import TestResult as Case  # not collected by pytest
from autograder.grade_options import GradeOptions
from autograder.report import canvas_feedback, manual_export
from autograder.report import run as report_run

DUE = "2026-03-01T23:59:00+00:00"
EARLY = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc).timestamp()
LATE = datetime(2026, 3, 3, 12, 0, tzinfo=timezone.utc).timestamp()


def graded_by_hand(assignment_id: str, folder: Path, out: Path) -> Batch:
    """A batch of the notebooks in `folder` as grading would leave it: every
    test passed, the cells kept, the entries as discovery found them."""
    a = assignment_mod.load(assignment_id)
    entries, _ = discover(folder, report_run.reserved_names(
        assignment_id, pipeline.assignment_reports(assignment_id)))
    results = [SubmissionResult(e.id, a.id, cells=kept_cells.keep(parse_cells(e.path.read_bytes())),
                                tests=[Case(c.question, c.name, c.title, c.points, c.points,
                                            "", c.visibility) for c in a.cases])
               for e in entries]
    return Batch(a, out, results=results, entries=entries, submissions=folder)


@pytest.fixture(params=["hw1_attention", "exam_midterm"])
def batch(request, tmp_path) -> Batch:
    """Two or three submissions, one of them late, with a previous run in DIR."""
    folder = tmp_path / "subs"
    folder.mkdir()
    examples = sorted((paths.EXAMPLES / request.param).glob("*.ipynb"))[:3]
    for notebook in examples:
        shutil.copyfile(notebook, folder / notebook.name)
        os.utime(folder / notebook.name, (EARLY, LATE if notebook == examples[0] else EARLY))
    b = graded_by_hand(request.param, folder, tmp_path / "out")
    for r in b.results:  # the previous run scored 0 on the first test: regrade.md says so
        (b.out / r.submission).mkdir(parents=True)
        write_results_json(b.out / r.submission / "results.json", r)
        data = json.loads((b.out / r.submission / "results.json").read_text())
        data["tests"][0]["score"] = 0.0
        (b.out / r.submission / "results.json").write_text(json.dumps(data))
    return b


def top_files(out: Path) -> dict[str, tuple[int, int]]:
    """Each file at the top of `out`: its inode and modification time (a file
    written again, atomically, gets a new inode)."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.iterdir() if p.is_file()}


def test_each_report_writes_only_the_files_it_declares(batch):
    extra = pipeline.assignment_reports(batch.assignment.id)
    ctx = report_run.Context(batch, report_run.prepare(batch.out, None, DUE))
    written = set()
    for report in report_run.declared(batch.assignment.id, extra):
        for need in report.needs:
            getattr(ctx, need)
        before = top_files(batch.out)
        report.write(ctx)
        changed = {n for n, seen in top_files(batch.out).items() if before.get(n) != seen}
        assert changed <= set(report.files), (report.name, changed)
        written |= changed
    reserved = set(report_run.reserved_names(batch.assignment.id, extra))
    # and nothing declared is stale, but for what this batch has no cause to write
    sometimes = {"free_responses.pdf",  # needs a browser this machine may not have
                 canvas_feedback.NAME,  # only for the entries of a Canvas download
                 manual_export.FOLDER}  # a folder: checked below
    if not batch.assignment.config.manual:  # only for questions graded by hand
        sometimes |= set(manual_export.FILES)
    assert reserved - sometimes <= written <= reserved
    folders = {p.name for p in batch.out.iterdir() if p.is_dir()} \
        - {r.submission for r in batch.results}
    assert folders == ({manual_export.FOLDER} if batch.assignment.config.manual else set())
    assert "regrade.md" in written and "similarity.html" in written


def test_write_all_writes_what_is_declared_in_order(batch):
    extra = pipeline.assignment_reports(batch.assignment.id)
    lines = report_run.write_all(batch, report_run.prepare(batch.out, None, DUE), extra)
    assert not [line for line in lines if "could not" in line], lines
    assert set(top_files(batch.out)) <= set(report_run.reserved_names(batch.assignment.id, extra))
    said = [next(i for i, line in enumerate(lines) if line.startswith(start))
            for start in ("late:", "feedback for students:", "class report:", "regrade:",
                          "similarity:")]
    assert said == sorted(said), lines
    first = sorted(batch.entries, key=lambda e: e.path.name)[0].id
    assert f"late: 1 submissions after the due date: {first}" in lines


def test_the_exams_files_come_from_the_exams_declaration():
    extra = pipeline.assignment_reports("exam_midterm")
    exam_files = set(extra[0].FILES)
    assert {"identity_flags.csv", "free_responses.html"} <= exam_files
    assert exam_files <= set(report_run.reserved_names("exam_midterm", extra))
    assert not exam_files & set(report_run.reserved_names("hw1_attention"))  # not a common name
    own = types.SimpleNamespace(FILES=("marks.csv",), write=lambda batch: [],
                                class_report_section=lambda batch: [])
    assert isinstance(own, hooks.BatchReports)
    assert "marks.csv" in report_run.reserved_names("hw1_attention", [own])
    assert not isinstance(types.SimpleNamespace(write=own.write, class_report_section=list),
                          hooks.BatchReports)  # a module declaring no FILES is refused


def test_a_declared_name_is_never_a_submission_id(tmp_path):
    own = types.SimpleNamespace(FILES=("marks.csv",), write=None, class_report_section=None)
    for name in ("marks.csv.ipynb", "identity_flags.csv.ipynb", "ada.ipynb"):
        (tmp_path / name).write_text("{}")
    exam = report_run.reserved_names("exam_midterm", pipeline.assignment_reports("exam_midterm"))
    entries, _ = discover(tmp_path, (*exam, *report_run.reserved_names("exam_midterm", [own])))
    assert {e.id for e in entries} == {"marks.csv.ipynb", "identity_flags.csv.ipynb", "ada"}


def test_grade_hands_the_declared_names_to_grading(tmp_path, monkeypatch):
    """`grade` loads the assignment's own reports before grading and passes
    every declared name to stage 1, then those reports to stage 2."""
    folder = tmp_path / "subs"
    folder.mkdir()
    shutil.copyfile(paths.EXAMPLES / "exam_midterm" / "s1001.ipynb", folder / "s1001.ipynb")
    seen = {}

    def grade_stage(assignment, submissions, out, **options):
        seen["reserved"] = options["reserved"]
        return Batch(assignment_mod.load(assignment), out, submissions=submissions)

    def report_stage(batch, prepared, extra=None):
        seen["extra"] = extra
        return report_run.write_all(batch, prepared, extra)
    monkeypatch.setattr(pipeline, "hidden_tests_disagree", lambda *args: None)
    monkeypatch.setattr(pipeline, "grade_stage", grade_stage)
    monkeypatch.setattr(pipeline, "report_stage", report_stage)
    (tmp_path / "out").mkdir()
    assert pipeline.main(GradeOptions(submissions=folder, assignment="exam_midterm",
                                      out=tmp_path / "out", quiet=True)) == 0
    assert seen["reserved"] == report_run.reserved_names("exam_midterm", seen["extra"])
    assert {"gradebook.csv", "identity_flags.csv"} <= set(seen["reserved"])


def test_lateness_is_the_time_discovery_read(tmp_path):
    """Touched or removed after discovery, an entry's time is still the one
    grading found it with: the report stage never reads the folder again."""
    folder = tmp_path / "subs"
    folder.mkdir()
    shutil.copyfile(paths.EXAMPLES / "hw1_attention" / "full_solution.ipynb", folder / "ada.ipynb")
    os.utime(folder / "ada.ipynb", (LATE, LATE))
    b = graded_by_hand("hw1_attention", folder, tmp_path / "out")
    (folder / "ada.ipynb").unlink()
    timing = report_run.Context(b, report_run.prepare(b.out, None, DUE)).timings["ada"]
    assert timing.source == "file time" and timing.submitted.timestamp() == LATE and timing.late


def test_no_submissions_names_the_batchs_folder(tmp_path):
    b = Batch(assignment_mod.load("hw1_attention"), tmp_path, submissions=tmp_path / "inbox")
    lines = report_run.write_all(b, report_run.Prepared())
    assert lines[0].startswith(f"warning: no submissions found in {tmp_path / 'inbox'};")


def test_a_report_needs_only_what_the_context_computes():
    assert all(hasattr(report_run.Context, need) for need in report_run.NEEDS)
    with pytest.raises(ValueError, match="needs"):
        report_run.Report("x", (), lambda ctx: None, needs=("grades",))
