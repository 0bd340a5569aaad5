"""Small misuses of `grade`, each answered with a status and a message that says what to do
(or with the right behaviour: files a TA can read, --due on a Canvas download).

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
    assert book["bob"]["status"] == "not graded" and book["bob"]["total"] == ""
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


def stopped_before_grading(capsys, tmp_path, *args: str) -> str:
    """grade a folder of one notebook with `args`: exit 2, nothing written; the message."""
    subs = tmp_path / "subs"
    subs.mkdir(exist_ok=True)
    shutil.copyfile(paths.EXAMPLES / ID / "full_solution.ipynb", subs / "ada.ipynb")
    out = tmp_path / "out"
    try:
        code, _, err = run(capsys, "grade", str(subs), "--assignment", ID, "--out", str(out),
                           *args)
    except SystemExit as exc:  # argparse's own usage errors
        code, err = exc.code, capsys.readouterr().err
    assert code == 2, err
    assert not (out / "grades.csv").exists()
    return err


@pytest.mark.parametrize("limit, says", [
    ("notebook_seconds=0", "notebook_seconds must be a number from 1 to 86400 (seconds), got 0"),
    ("notebook_seconds=-5", "notebook_seconds must be a number from 1 to 86400"),
    ("call_seconds=0", "call_seconds must be a number from 0.1 to 3600"),
    ("notebook_seconds=1e9", "from 1 to 86400 (seconds), got 1000000000"),
    ("memory_mb=1", "memory_mb must be a whole number from 64 to 1048576 (MB), got 1; "
                    "a worker needs about 64 MB"),
    ("memory_mb=1.5", "memory_mb must be a whole number from 64"),
    ("processes=0", "processes must be a whole number from 1 to 4096 (processes), got 0; "
                    "the worker itself is one"),
    ("cpu_seconds=0", "cpu_seconds must be a whole number from 1 to 86400"),
    ("disk_mb=0", "disk_mb must be a whole number from 1 to 1048576"),
    ("restarts=-1", "restarts must be a whole number from 0 to 100"),
    ("restarts=1e3", "restarts must be a whole number from 0 to 100 (restarts), got 1000"),
    ("call_seconds=nan", "the value must be a number"),
])
def test_a_limit_out_of_its_range_is_refused_naming_the_range(capsys, tmp_path, limit, says):
    """Is a limit that would zero the class (0 s), pass for a machine without a
    sandbox (1 MB, 0 processes) or is absurd (1e9 s) refused at once, naming the
    limit and its range, rather than graded?"""
    err = stopped_before_grading(capsys, tmp_path, "--limit", limit)
    assert err.startswith(f"error: --limit {limit}: ") and says in err
    assert "sandbox" not in err


def test_numbers_in_scientific_notation_are_numbers():
    """Is 2e1 a number for --limit (and 1e3 a whole one), as 20 and 20.0 are?"""
    from autograder.grade import parse_limits
    assert parse_limits(["notebook_seconds=2e1", "memory_mb=1e3", "call_seconds=.5",
                         "processes=1", "restarts=0"]) == {
        "notebook_seconds": 20.0, "memory_mb": 1000, "call_seconds": 0.5, "processes": 1,
        "restarts": 0}


def test_jobs_in_scientific_notation_and_bounded(capsys, tmp_path):
    """Is --jobs 1e0 read as 1 (grading then stops at the bad limit, not at --jobs),
    --jobs 2e3 refused as too many, and --jobs 1.5 refused as no whole number?"""
    err = stopped_before_grading(capsys, tmp_path, "--jobs", "1e0", "--limit", "processes=0")
    assert "--limit processes=0" in err
    assert "--jobs 2000 is more than 1024" in stopped_before_grading(
        capsys, tmp_path, "--jobs", "2e3")
    assert "expected a whole number (such as 4 or 1e3), got '1.5'" in stopped_before_grading(
        capsys, tmp_path, "--jobs", "1.5")


def test_every_limit_has_a_range_and_the_shipped_configs_are_within():
    """Does each limit have a range (memory's floor the one the container fit uses),
    do the grading configs keep within them, and does a TOML value out of range fail?"""
    from dataclasses import fields

    from autograder.engine import config
    from autograder.engine.isolation import memory_budget
    assert list(config.LIMIT_RANGES) == [f.name for f in fields(config.Limits)]
    assert config.LIMIT_RANGES["memory_mb"][0] == memory_budget.MINIMUM_MB
    for assignment_id in registry.ids():
        config.load(assignment_id)  # raises ConfigError when a limit is out of range
    with pytest.raises(config.ConfigError, match="notebook_seconds must be a number from 1"):
        config.check_limit("notebook_seconds", 0)
    with pytest.raises(config.ConfigError, match="memory_mb must be a whole number"):
        config.check_limit("memory_mb", True)
    assert config.check_limit("memory_mb", 1e3) == 1000


@pytest.mark.parametrize("inside", [True, False])
def test_out_inside_the_submissions_folder_is_refused(capsys, tmp_path, inside):
    """Is --out inside (or equal to) the submissions folder refused, since the next
    run would grade the grader's own files as a student's?"""
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copyfile(paths.EXAMPLES / ID / "full_solution.ipynb", subs / "ada.ipynb")
    out = subs / "results" if inside else subs
    code, _, err = run(capsys, "grade", str(subs), "--assignment", ID, "--out", str(out))
    where = "is inside the submissions folder" if inside else "is the submissions folder"
    assert code == 2 and f"error: --out {out} {where}" in err
    assert "give a folder outside it" in err
    assert sorted(p.name for p in subs.iterdir()) == ["ada.ipynb"]


def test_due_on_a_canvas_download_says_it_cannot_judge(capsys, tmp_path):
    """Does --due on a Canvas download (file names, no submission times) say in a
    warning that it cannot judge lateness, leaving the submission on time?"""
    subs = tmp_path / "canvas"
    subs.mkdir()
    shutil.copyfile(paths.EXAMPLES / ID / "full_solution.ipynb",
                    subs / "lovelaceada_1001_5001_hw1_attention.ipynb")
    out = tmp_path / "out"
    code, printed, _ = run(capsys, "grade", str(subs), "--assignment", ID, "--out", str(out),
                           "--due", "2020-01-01T00:00", *LIMITS)
    assert code == 0
    assert "warning: --due cannot judge 1 submissions of a Canvas download" in printed
    assert read_rows(out / "gradebook.csv")["lovelaceada_1001"]["status"] == "graded"


def current_umask() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1], 8) for line in f if line.startswith("Umask:"))


def test_what_grade_writes_has_the_umasks_permissions(mixed):
    """Are grades.csv, results.json, feedback and the reports readable as any
    tool's files are (0644 under umask 022), not only by the grader's user?"""
    expected = 0o666 & ~current_umask()
    for path in (mixed / "grades.csv", mixed / "ada" / "results.json",
                 mixed / "ada" / "feedback.html", mixed / "report.html",
                 mixed / "gradebook.csv"):
        assert path.stat().st_mode & 0o777 == expected, path


def test_an_internal_type_error_is_not_a_usage_error(capsys, tmp_path, monkeypatch):
    """Does a TypeError of the grader's own inside grading show as itself (its
    traceback, exit 1 when run as a command), never as `error: ...` and status 2?"""
    from autograder import grade as pipeline

    def broken(*args, **kwargs):
        raise TypeError("a bug of the grader's")
    monkeypatch.setattr(pipeline, "hidden_tests_disagree", lambda *args: None)
    monkeypatch.setattr(pipeline, "grade_stage", broken)
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copyfile(paths.EXAMPLES / ID / "full_solution.ipynb", subs / "ada.ipynb")
    with pytest.raises(TypeError, match="a bug of the grader's"):
        cli.main(["grade", str(subs), "--assignment", ID, "--out", str(tmp_path / "out")])
    assert "error:" not in capsys.readouterr().err
