"""Small misuses of `grade`, each answered with a status and a message that says what to do.

(A SUBMISSIONS path that does not exist and an empty folder are in
test_report_cli.py with the other mistakes that stop before grading.)
"""
from __future__ import annotations

import csv
import json
import shutil

import pytest

from autograder import cli, paths, registry

ID = "hw1_attention"
LIMITS = ["--limit", "notebook_seconds=20", "--limit", "call_seconds=10"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def read_rows(path):
    with open(path, newline="") as f:
        return {r["submission"]: r for r in csv.DictReader(f)}


def test_a_single_notebook_is_graded(capsys, tmp_path):
    """Is one .ipynb given as SUBMISSIONS graded as one submission named after it?"""
    notebook = tmp_path / "ada.ipynb"
    shutil.copyfile(paths.EXAMPLES / ID / "full_solution.ipynb", notebook)
    code, out, _ = run(capsys, "grade", str(notebook), "--assignment", ID,
                       "--out", str(tmp_path / "out"), *LIMITS)
    assert code == 0 and "1 submissions graded" in out
    grades = read_rows(tmp_path / "out" / "grades.csv")
    assert list(grades) == ["ada"] and float(grades["ada"]["total"]) == 18


def test_a_single_zip_asks_to_be_unzipped(capsys, tmp_path):
    """Is a .zip given as SUBMISSIONS (likely a whole LMS download) refused with what to do?"""
    archive = tmp_path / "submissions.zip"
    shutil.copyfile(paths.EXAMPLES / ID / "otter_export.zip", archive)
    code, _, err = run(capsys, "grade", str(archive), "--assignment", ID,
                       "--out", str(tmp_path / "out"))
    assert code == 2 and "is a zip file: unzip it and give the folder" in err


def test_a_folder_without_a_gradable_file_stops(capsys, tmp_path):
    """Does a folder of .py and .txt files exit 2 and say that none is a notebook?"""
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "ada.py").write_text("def causal_mask(n): ...\n")
    (subs / "readme.txt").write_text("hello")
    code, _, err = run(capsys, "grade", str(subs), "--assignment", ID,
                       "--out", str(tmp_path / "out"))
    assert code == 2
    assert "holds nothing to grade: 2 files (ada.py, readme.txt)" in err
    assert "none is a .ipynb notebook, a .zip or a folder" in err
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """A folder with this assignment's notebooks, a .py, and hw2's notebook."""
    root = tmp_path_factory.mktemp("misuse")
    subs = root / "subs"
    subs.mkdir()
    shutil.copyfile(paths.EXAMPLES / ID / "full_solution.ipynb", subs / "ada.ipynb")
    shutil.copyfile(paths.EXAMPLES / ID / "untouched.ipynb", subs / "untouched.ipynb")
    shutil.copyfile(paths.EXAMPLES / "hw2_positions_params" / "full_solution.ipynb",
                    subs / "grace.ipynb")
    (subs / "bob.py").write_text("def causal_mask(n):\n    return None\n")
    out = root / "out"
    assert cli.main(["grade", str(subs), "--assignment", ID, "--out", str(out), "--quiet",
                     *LIMITS]) == 0
    return out


def test_a_python_file_keeps_its_student_not_graded(mixed):
    """Is bob.py kept in gradebook.csv and grades.csv, not graded, with the reason?"""
    book = read_rows(mixed / "gradebook.csv")
    assert book["bob"]["status"] == "not graded" and book["bob"]["total"] == "0"
    assert "bob.py is not a notebook, so it was not graded: submit the .ipynb file" \
        in book["bob"]["note"]
    assert "bob" in read_rows(mixed / "grades.csv")
    assert book["ada"]["status"] == "graded" and book["ada"]["total"] == "18"


def test_another_assignments_notebook_is_recognised(mixed):
    """Does hw2's notebook graded as hw1 say so in its feedback, its results and the
    class report, while hw1's own untouched notebook is not taken for another's?"""
    feedback = (mixed / "grace" / "feedback.md").read_text()
    assert "This looks like the notebook of hw2_positions_params, not of hw1_attention" \
        in feedback
    results = json.loads((mixed / "grace" / "results.json").read_text())
    assert "notebook of hw2_positions_params" in results["output"]
    report = (mixed / "report.html").read_text()
    assert "Notebooks of another assignment" in report
    assert "<td>grace</td><td>hw2_positions_params</td>" in report
    for other in ("ada", "untouched"):
        assert "looks like the notebook of" not in (mixed / other / "feedback.md").read_text()


@pytest.mark.parametrize("notebook_of", registry.ids())
def test_every_student_notebook_is_told_apart(notebook_of):
    """Is each assignment's notebook, as handed out, recognised as its own under
    every other assignment of the course, and as nobody else's under its own?"""
    from autograder.engine.intake import foreign
    from autograder.engine.intake.notebook import parse_cells
    cells = parse_cells(registry.get(notebook_of).student_notebook.read_bytes())
    untitled = [c for c in cells if c.get("cell_type") == "code"]  # told apart by stubs only
    by_stubs = notebook_of if notebook_of.startswith("hw") else None  # the exam's are numbers
    for graded_as in registry.ids():
        mine = graded_as == notebook_of
        assert foreign.other_assignment(cells, graded_as) == (None if mine else notebook_of)
        assert foreign.other_assignment(untitled, graded_as) == (None if mine else by_stubs)
