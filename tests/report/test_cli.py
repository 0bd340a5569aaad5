"""Does `python -m autograder` explain itself?

--help works for every command; mistakes of the user end in a message that
says what to do and exit status 2, before any grading starts; grading an
empty folder is not an error of the grader (status 0, with a warning).
"""
from __future__ import annotations

import pytest

from autograder import cli

COMMANDS = ("new", "build", "grade", "audit", "run-gradescope", "try-zip", "bench")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's own exits (--help, usage errors)
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_top_level_help_lists_every_command(capsys):
    """Does --help name every command and point at the per-command help?"""
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in COMMANDS:
        assert command in out
    assert "COMMAND --help" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(capsys, command):
    """Does each command's --help describe it and every option?"""
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and f"usage: python -m autograder {command}" in out
    bare = [line for line in out.splitlines()
            if line.startswith("  -") and not line.startswith("  -h") and len(line.split()) <= 2
            and not _continued(out, line)]
    assert not bare, f"options without a help text: {bare}"


def _continued(text: str, line: str) -> bool:
    """argparse puts the help on the next line after a long option."""
    lines = text.splitlines()
    nxt = lines[lines.index(line) + 1] if lines.index(line) + 1 < len(lines) else ""
    return nxt.startswith(" " * 10) and nxt.strip() != ""


def test_grade_help_names_outputs_and_demo(capsys):
    """Does `grade --help` say which files it writes and show the demo command?"""
    _, out, _ = run(capsys, "grade", "--help")
    flat = " ".join(out.split())
    for name in ("grades.csv", "results.json", "feedback.md", "gradebook.csv", "canvas.csv",
                 "report.html", "regrade.md", "similarity.html", "--roster", "--due"):
        assert name in flat
    assert "python -m autograder grade examples/hw1_attention --assignment hw1_attention" in flat


def test_no_command_prints_help(capsys):
    code, _, err = run(capsys)
    assert code == 2 and "grade" in err and "COMMAND --help" in err


@pytest.mark.parametrize("args, says", [
    (["--assignment", "nope"], "unknown assignment 'nope'; known: "),
    (["--roster", "{tmp}/none.csv"], "does not exist; give a CSV file"),
    (["--roster", "{tmp}/bad.csv"], "no identifier column"),
    (["--due", "friday"], "write it like 2026-03-01T23:59"),
    (["--limit", "speed=3"], "unknown limit 'speed'; known: notebook_seconds"),
    (["--limit", "notebook_seconds=soon"], "the value must be a number"),
    (["--jobs", "0"], "--jobs must be 1 or more"),
    (["--canvas-column", "Homework 1"], "names no Canvas assignment id"),
    (["--groups", "{tmp}/bad.csv"], "expected Canvas's group export"),
    (["--excused", "{tmp}/none.txt"], "--excused {tmp}/none.txt does not exist"),
])
def test_user_mistakes_stop_before_grading(capsys, tmp_path, args, says):
    """Does each mistake end with status 2 and a message saying what to do, nothing graded?"""
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "ada.ipynb").write_text("{}")
    (tmp_path / "bad.csv").write_text("name,score\nAda,3\n")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    says = says.replace("{tmp}", str(tmp_path))
    if "--assignment" not in args:
        args += ["--assignment", "hw1_attention"]
    code, _, err = run(capsys, "grade", str(subs), "--out", str(tmp_path / "out"), *args)
    assert code == 2 and says in err
    assert err.startswith("error: ")
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_out_must_not_be_a_file(capsys, tmp_path):
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "ada.ipynb").write_text("{}")
    (tmp_path / "file").write_text("")
    code, _, err = run(capsys, "grade", str(tmp_path / "subs"), "--assignment", "hw1_attention",
                       "--out", str(tmp_path / "file"))
    assert code == 2 and "is a file; give a folder" in err


def test_missing_submissions_folder(capsys, tmp_path):
    """Does a path that does not exist say so (not that it is no folder), grading nothing?"""
    code, _, err = run(capsys, "grade", str(tmp_path / "nowhere"), "--assignment",
                       "hw1_attention", "--out", str(tmp_path / "out"))
    assert code == 2 and f"error: {tmp_path / 'nowhere'} does not exist" in err
    assert not (tmp_path / "out").exists()


def test_empty_folder_stops_with_a_reason(capsys, tmp_path):
    """An empty folder is nothing to grade: status 2, and what to put there."""
    (tmp_path / "subs").mkdir()
    code, _, err = run(capsys, "grade", str(tmp_path / "subs"), "--assignment", "hw1_attention",
                       "--out", str(tmp_path / "out"))
    assert code == 2 and "is empty: put one .ipynb, .zip or folder per student there" in err
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_every_grade_option_reaches_the_one_options_object(monkeypatch, tmp_path):
    """Does `grade` hand grade.main one GradeOptions holding every option given
    (none left at its default when the command line sets it)?"""
    import dataclasses

    from autograder import grade as pipeline
    from autograder.grade_options import GradeOptions
    seen = []
    monkeypatch.setattr(pipeline, "main", lambda options: seen.append(options) or 0)
    file = str(tmp_path / "f")
    assert cli.main(["grade", "subs", "--assignment", "hw1_attention", "--out", "out",
                     "--jobs", "2", "--quiet", "--limit", "notebook_seconds=5", "--roster", file,
                     "--canvas-column", "T (1)", "--groups", file, "--excused", file,
                     "--unsafe-no-sandbox", "--due", "2026-03-01T23:59", "--policy", file,
                     "--manual-scores", file, "--no-anonymous", "--scheduler", "tcp://h:1",
                     "--resume"]) == 0
    [options] = seen
    assert isinstance(options, GradeOptions)
    left = [f.name for f in dataclasses.fields(GradeOptions)
            if f.default is not dataclasses.MISSING and getattr(options, f.name) == f.default]
    assert not left, f"options the command line set but GradeOptions did not get: {left}"
    assert options.limits == ("notebook_seconds=5",) and options.anonymous is False
