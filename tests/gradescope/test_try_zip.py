"""`try-zip`: a built zip run on one notebook as Gradescope runs it, before upload."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder import cli
from autograder.gradescope import package, try_zip


REPO = Path(__file__).resolve().parents[2]
ASSIGNMENT = "hw1_attention"
EXAMPLES = REPO / "examples" / ASSIGNMENT


@pytest.fixture(scope="module")
def zip_path(tmp_path_factory):
    return package.write_zip(ASSIGNMENT, tmp_path_factory.mktemp("zip") / f"{ASSIGNMENT}.zip")


def _try(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", "try-zip", *map(str, args)],
                          capture_output=True, text=True, timeout=600, cwd=REPO)


def test_the_full_solution_and_the_untouched_notebook_as_instructor_and_student_see_them(
        zip_path, tmp_path):
    """The zip's own run_autograder grades the upload (full marks, 0), the instructor
    sees every test and the sandbox line, a student only the visible tests and no total
    before the grades are published, every test and the total after."""
    full = _try(zip_path, EXAMPLES / "full_solution.ipynb", "--keep", tmp_path / "kept")
    assert full.returncode == 0, full.stderr
    out = full.stdout
    assert "As the instructor sees it:\n  score 18.0" in out
    assert "sandbox: " in out and "[after_published] " in out
    assert "As a student sees it before the due date: 3 of 18 tests, no total shown" in out
    assert "As a student sees it once grades are published: 18 of 18 tests, score 18.0" in out
    kept = tmp_path / "kept"
    assert (kept / "submission" / "full_solution.ipynb").is_file()
    assert (kept / "results" / "results.json").is_file()
    assert (kept / "source" / "run_autograder").stat().st_mode & 0o100  # its mode kept
    untouched = _try(zip_path, EXAMPLES / "untouched.ipynb")
    assert untouched.returncode == 0 and "As the instructor sees it:\n  score 0.0" in untouched.stdout


def test_what_cannot_be_run_says_why_and_exits_1(zip_path, tmp_path, capsys):
    """A file that is no zip, a zip with no run_autograder, one whose names climb out of
    its folder, a missing zip or notebook: a message, exit 1."""
    not_zip = tmp_path / "not.zip"
    not_zip.write_text("text")
    no_script = tmp_path / "plain.zip"
    with zipfile.ZipFile(no_script, "w") as zf:
        zf.writestr("setup.sh", "")
    outside = tmp_path / "outside.zip"
    with zipfile.ZipFile(outside, "w") as zf:
        zf.writestr("run_autograder", "")
        zf.writestr("../escaped", "x")
    notebook = EXAMPLES / "full_solution.ipynb"
    for path, message in ((not_zip, "cannot be read as a zip"),
                          (no_script, "has no run_autograder at its root"),
                          (outside, "points outside the zip"),
                          (tmp_path / "missing.zip", "no such zip"),
                          (zip_path, "no such notebook")):
        given = tmp_path / "none.ipynb" if path == zip_path else notebook
        assert cli.main(["try-zip", str(path), str(given)]) == 1
        assert message in capsys.readouterr().err


def test_a_student_sees_each_test_when_its_visibility_says():
    """A test's own visibility over the top level's; hidden never; the total only while
    no test is hidden from the student."""
    results = {"score": 3.0, "visibility": "after_published", "output": "notes", "tests": [
        {"name": "a", "score": 1, "max_score": 1, "visibility": "visible", "output": "ok"},
        {"name": "b", "score": 1, "max_score": 1, "visibility": "after_due_date"},
        {"name": "c", "score": 1, "max_score": 1},
        {"name": "d", "score": 0, "max_score": 1, "visibility": "hidden"}]}
    lines = try_zip.student_views(results)
    heads = [line for line in lines if line.startswith("As a student")]
    assert heads == [
        "As a student sees it before the due date: 1 of 4 tests, no total shown (a test is "
        "hidden from them)",
        "As a student sees it after the due date: 2 of 4 tests, no total shown (a test is "
        "hidden from them)",
        "As a student sees it once grades are published: 3 of 4 tests, no total shown (a "
        "test is hidden from them)"]
    del results["tests"][3]
    assert try_zip.student_views(results)[-2:] == ["  c: 1 / 1", "  notes"]
    assert "once grades are published: 3 of 3 tests, score 3.0" in "\n".join(
        try_zip.student_views(results))
