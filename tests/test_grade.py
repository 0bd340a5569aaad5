"""Is grading a pipeline (autograder/grade.py): stage 1 writes results.json and
grades.csv only, stage 2 every report, the exam's included; the Gradescope entry and
bench, which run stage 1 alone, leave no report behind?"""
from __future__ import annotations

import errno
import shutil

from autograder import cli, paths
from autograder.engine import batch
from autograder.engine import results as results_mod
from tests.conftest import FAST_LIMITS

EXAM = paths.EXAMPLES / "exam_midterm"
REPORTS = {"report.html", "gradebook.csv", "canvas.csv", "similarity.html", "free_responses.html",
           "variant_difficulty.csv", "variant_difficulty.html", "identity_flags.csv"}


def exam_submissions(folder):
    folder.mkdir()
    for name in ("s1001.ipynb", "s1002.ipynb"):
        shutil.copyfile(EXAM / name, folder / name)
    return folder


def test_grading_alone_writes_no_report(tmp_path):
    subs = exam_submissions(tmp_path / "subs")
    out = tmp_path / "out"
    batch.grade_folder("exam_midterm", subs, out, progress=False, limits=FAST_LIMITS)
    assert {p.name for p in out.iterdir() if p.is_file()} == {"grades.csv"}
    assert (out / "s1001" / "results.json").is_file()
    assert not [p for p in out.rglob("*") if p.name in REPORTS or p.name.startswith("feedback")]


def test_the_report_stage_writes_every_report_the_exams_included(tmp_path, capsys):
    subs = exam_submissions(tmp_path / "subs")
    out = tmp_path / "out"
    limits = [f"--limit={k}={v}" for k, v in FAST_LIMITS.items()]
    assert cli.main(["grade", str(subs), "--assignment", "exam_midterm", "--out", str(out),
                     *limits]) == 0
    assert REPORTS <= {p.name for p in out.iterdir()}
    assert (out / "s1001" / "feedback.html").is_file()
    assert "Difficulty per variant" in (out / "report.html").read_text()
    printed = capsys.readouterr().out
    assert "exam exam_midterm:" in printed and "class report:" in printed


def test_a_failed_write_costs_only_the_file_being_written(tmp_path, monkeypatch, capsys):
    """When the disk is full as one results.json is written, are the other results
    and grades.csv (with every row) still written, does the table say what is
    missing, and is the exit status 1?"""
    subs = exam_submissions(tmp_path / "subs")
    out = tmp_path / "out"
    written = results_mod.write_results_json

    def full_for_s1001(path, result, *visibility):
        if result.submission == "s1001":
            raise OSError(errno.ENOSPC, "No space left on device")
        written(path, result, *visibility)
    monkeypatch.setattr(results_mod, "write_results_json", full_for_s1001)
    limits = [f"--limit={k}={v}" for k, v in FAST_LIMITS.items()]
    assert cli.main(["grade", str(subs), "--assignment", "exam_midterm", "--out", str(out),
                     *limits]) == 1
    assert (out / "s1002" / "results.json").is_file()
    assert not (out / "s1001" / "results.json").exists()
    rows = (out / "grades.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["s1001", "s1002"]
    printed = capsys.readouterr().out
    assert "error: 1 files of grading could not be written" in printed
    assert "s1001/results.json (No space left on device)" in printed
