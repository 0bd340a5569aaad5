"""canvas.csv both ways: the right Canvas column (by id, by title, else a loud
warning), scores out of the Canvas assignment's points, blanks for entries that
were not graded, EX for excused students, anonymous and group submissions, and
feedback_for_canvas.zip for Canvas's "Re-Upload Submissions". On hand-made
results and the real report stage (report/run.write_all): no grading."""
from __future__ import annotations

import csv
import io
import zipfile

import pytest

from autograder import cli
from autograder import grade as pipeline
from autograder.engine import assignment as assignment_mod
from autograder.engine.batch import Batch
from autograder.engine.results import SubmissionResult
from autograder.engine.results import TestResult as Case  # not collected by pytest
from autograder.course import groups, roster
from autograder.report import canvas, canvas_feedback, gradebook
from autograder.report import run as report_run

# Heavy (grades a batch per Canvas case): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

ID = "hw1_attention"
TITLE = "Homework 1: attention and masks"
HEADER = "Student,ID,SIS User ID,SIS Login ID,Section"


def write_roster(tmp_path, columns: list[str], points: list[str], rows: str) -> roster.Roster:
    path = tmp_path / "roster.csv"
    head = ",".join(f'"{c}"' for c in columns)
    path.write_text(f"{HEADER},{head}\n    Points Possible,,,,,{','.join(points)}\n{rows}")
    return roster.read(path)


def result(sid: str, points: float = 18.0, error: str | None = None, **user) -> SubmissionResult:
    """A hw1 result scoring `points` of 18 (the first tests up to it), by `user`."""
    a = assignment_mod.load(ID)
    tests, left = [], points
    for c in a.cases:
        got = min(c.points, left)
        left -= got
        tests.append(Case(c.question, c.name, c.title, got, c.points,
                          "passed" if got == c.points else "differs", c.visibility))
    meta = {"users": [user]} if user else {}
    return SubmissionResult(sid, ID, tests=tests, error=error, metadata=meta)


def canvas_rows(text: str) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """(header, Points Possible row, {ID or SIS Login ID: row})."""
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1], {r[1] or r[3]: r for r in rows[2:]}


def report(tmp_path, results, **prepared) -> tuple[list[str], dict]:
    """The report stage on `results` (hw1): (lines printed, {id: canvas.csv row})."""
    batch = Batch(assignment_mod.load(ID), tmp_path, results=results, submissions=tmp_path)
    lines = report_run.write_all(batch, report_run.Prepared(**prepared))
    return lines, canvas_rows((tmp_path / "canvas.csv").read_text())


# --- the column ----------------------------------------------------------------------

def test_the_roster_column_is_found_by_title_case_and_spaces_aside(tmp_path):
    r = write_roster(tmp_path, ["Quiz 1 (111)", "homework 1:attention AND  masks (222)"],
                     ["5", "18"], "")
    t = canvas.target(r, ID, TITLE, 18.0)
    assert t.column == "homework 1:attention AND  masks (222)"
    assert not [line for line in t.lines if line.startswith(canvas.WARNING)]


def test_canvas_column_names_the_column_by_its_id(tmp_path):
    """--canvas-column is written exactly as given; the roster's column of the same id
    (renamed since) gives the points possible."""
    r = write_roster(tmp_path, ["Attention HW (98765)", f"{TITLE} (11)"], ["10", "18"], "")
    t = canvas.target(r, ID, TITLE, 18.0, "Homework one (98765)")
    assert t.column == "Homework one (98765)" and t.points_possible == 10.0
    assert not [line for line in t.lines if line.startswith(canvas.WARNING)]


def test_no_matching_column_is_a_loud_warning_listing_the_columns(tmp_path):
    r = write_roster(tmp_path, ["Quiz 1 (111)", "HW one (222)", "Current Score"], ["5", "18", ""],
                     "")
    t = canvas.target(r, ID, TITLE, 18.0)
    warning, = [line for line in t.lines if line.startswith("WARNING: ")]
    assert "'Quiz 1 (111)'; 'HW one (222)'" in warning and "Current Score" not in warning
    assert "NEW assignment" in warning and "--canvas-column" in warning
    assert t.column == TITLE  # said, not guessed
    unknown_id = canvas.target(r, ID, TITLE, 18.0, "HW one (333)")
    assert any(line.startswith("WARNING: --canvas-column 'HW one (333)'")
               and "'HW one (222)'" in line for line in unknown_id.lines)


def test_two_columns_of_the_same_title_are_no_match(tmp_path):
    r = write_roster(tmp_path, [f"{TITLE} (1)", f"{TITLE.upper()} (2)"], ["18", "18"], "")
    assert r.assignment_column(ID, TITLE) is None
    assert r.assignment_column(ID, TITLE, "2") == f"{TITLE.upper()} (2)"


def test_without_a_roster_canvas_would_make_a_new_assignment(tmp_path):
    lines, (head, _, _) = report(tmp_path, [result("ada")])
    assert head[5] == TITLE
    assert any(line.startswith("WARNING: ") and "NEW assignment" in line for line in lines)
    assert "Canvas import" in (tmp_path / "report.html").read_text()  # and in report.html
    lines, (head, _, _) = report(tmp_path, [result("ada")], canvas_column=f"{TITLE} (98765)")
    assert head[5] == f"{TITLE} (98765)"
    assert not [line for line in lines if line.startswith("WARNING: ")]


# --- points, blanks, excused -----------------------------------------------------------

def test_scores_are_scaled_to_the_canvas_points_possible(tmp_path):
    r = write_roster(tmp_path, [f"{TITLE} (5)"], ["10"], '"Lovelace, Ada",1001,s01,ada,A,\n')
    lines, (head, points, rows) = report(
        tmp_path, [result("ada", 9.0, name="Ada", canvas_user_id="1001")], roster=r)
    assert points[5] == "10" and rows["1001"][5] == "5"  # 9 of 18 is 5 of 10
    assert sum("scaled to the Canvas assignment's 10 points" in line for line in lines) == 1
    eight = gradebook.canvas_csv([gradebook.Row(None, result("bo", 8.0), None, "", {})], "A",
                                 18.0, 10.0)
    assert eight.splitlines()[1:] == ["Points Possible,,,,,10", "bo,,,bo,,4.44"]
    same = write_roster(tmp_path, [f"{TITLE} (5)"], ["18"], '"Lovelace, Ada",1001,s01,ada,A,\n')
    lines, (_, points, rows) = report(
        tmp_path, [result("ada", 9.0, canvas_user_id="1001")], roster=same)
    assert rows["1001"][5] == "9" and points[5] == "18"
    assert not [line for line in lines if "scores scaled" in line or "must be worth" in line]


def test_without_points_possible_one_note_says_what_canvas_must_have(tmp_path):
    r = write_roster(tmp_path, [f"{TITLE} (5)"], [""], '"Lovelace, Ada",1001,s01,ada,A,\n')
    lines, (_, _, rows) = report(tmp_path, [result("ada", 9.0, canvas_user_id="1001")], roster=r)
    assert rows["1001"][5] == "9"
    assert sum("the Canvas assignment must be worth 18 points" in line for line in lines) == 1


def test_entries_not_graded_are_blank_with_the_reason(tmp_path):
    """A PDF is not a 0 in Canvas: blank, and grade's output says why."""
    lines, (_, _, rows) = report(tmp_path, [
        result("ada"), result("bob", 0.0, error="report.pdf is not a notebook, so it was not graded")])
    assert rows["ada"][5] == "18" and rows["bob"][5] == ""
    at = next(i for i, line in enumerate(lines) if "were not graded and are left blank" in line)
    assert lines[at + 1] == "  bob: report.pdf is not a notebook, so it was not graded"
    with open(tmp_path / "gradebook.csv", newline="") as f:
        book = {r["submission"]: r for r in csv.DictReader(f)}
    assert book["bob"]["status"] == "not graded" and "report.pdf" in book["bob"]["note"]
    # blank as in canvas.csv, not a 0 (a PDF has no score)
    assert [book["bob"][c] for c in ("total", "percent", "final")] == ["", "", ""]
    assert [book["ada"][c] for c in ("total", "final")] == ["18", "18"]


def test_excused_students_are_ex(tmp_path):
    r = write_roster(tmp_path, [f"{TITLE} (5)"], ["18"],
                     '"Lovelace, Ada",1001,s01,ada,A,\n"Hopper, Grace",1002,s02,grace,A,\n'
                     '"Turing, Alan",1003,s03,alan,B,\n')
    lines, (_, _, rows) = report(
        tmp_path, [result("ada_1001", 9.0, canvas_user_id="1001"),
                   result("grace", 0.0, error="unreadable", canvas_user_id="1002")],
        roster=r, excused=frozenset({"1001", "alan", "nobody"}))
    assert (rows["1001"][5], rows["1002"][5], rows["1003"][5]) == ("EX", "", "EX")
    assert any("2 students excused (EX): Lovelace, Ada, Turing, Alan" in line for line in lines)
    assert any("--excused: 1 identifiers name no row" in line and "nobody" in line
               for line in lines)
    plain = gradebook.canvas_csv([gradebook.Row(None, result("ann"), None, "", {})], "A", 18.0,
                                 excused={"ann"})
    assert plain.splitlines()[2].endswith(",EX")


def test_excused_file_is_read_one_id_a_line(tmp_path, capsys):
    path = tmp_path / "excused.txt"
    path.write_text("# medical\n 1001 \n\nAda@Uni.edu\n")
    assert report_run.prepare(tmp_path / "out", excused_path=path).excused == {"1001",
                                                                             "ada@uni.edu"}
    with pytest.raises(ValueError, match="does not exist"):
        report_run.prepare(tmp_path / "out", excused_path=tmp_path / "none.txt")


# --- anonymous and group submissions -----------------------------------------------------

def test_anonymous_submissions_are_graded_and_said_to_be_unmatched(tmp_path):
    anon = result("anon_Xy3k9", 9.0, canvas_anonymous_id="Xy3k9")
    anon.metadata["lms"] = "canvas"
    lines, (_, _, rows) = report(tmp_path, [anon, result("ada")])
    assert list(rows) == ["ada"]  # no id Canvas could import it by
    assert any("1 anonymous submissions are left out" in line and "no user id" in line
               for line in lines)
    r = write_roster(tmp_path, [f"{TITLE} (5)"], ["18"], '"Lovelace, Ada",1001,s01,ada,A,\n')
    lines, (_, _, rows) = report(tmp_path, [anon], roster=r)
    assert rows["1001"][5] == ""
    with open(tmp_path / "gradebook.csv", newline="") as f:
        book = {r["submission"]: r for r in csv.DictReader(f)}
    assert book["anon_Xy3k9"]["on_roster"] == "no" and book["anon_Xy3k9"]["total"] == "9"
    assert "names no student (no Canvas user id" in book["anon_Xy3k9"]["note"]


GROUPS = """name,canvas_user_id,user_id,login_id,sections,group_name,canvas_group_id,group_id
"Lovelace, Ada",1001,s01,ada,A,Team A,77,
"Hopper, Grace",1002,s02,grace,A,Team A,77,
"Turing, Alan",1003,s03,alan,B,Team B,78,
"Noether, Emmy",1005,s05,emmy,B,,,
"""


def test_every_member_of_the_uploaders_group_is_credited(tmp_path):
    """A group's one file (uploaded by Grace) counts for Ada too, on the roster and off it."""
    (tmp_path / "groups.csv").write_text(GROUPS)
    teams = groups.read(tmp_path / "groups.csv")
    r = write_roster(tmp_path, [f"{TITLE} (5)"], ["18"],
                     '"Lovelace, Ada",1001,s01,ada,A,\n"Hopper, Grace",1002,s02,grace,A,\n'
                     '"Noether, Emmy",1005,s05,emmy,B,\n')
    team = result("teama_1002", 12.0, name="teama", canvas_user_id="1002")
    lone = result("noetheremmy_1005", 6.0, name="noetheremmy", canvas_user_id="1005")
    lines, (_, _, rows) = report(tmp_path, [team, lone], roster=r, groups=teams)
    assert {k: v[5] for k, v in rows.items()} == {"1001": "12", "1002": "12", "1005": "6"}
    with open(tmp_path / "gradebook.csv", newline="") as f:
        book = {r["student"]: r for r in csv.DictReader(f)}
    assert book["Lovelace, Ada"]["status"] == "graded"  # not missing
    assert book["Lovelace, Ada"]["submission"] == "teama_1002"
    assert "group submission of Lovelace, Ada, Hopper, Grace" in book["Lovelace, Ada"]["note"]
    assert any("1 submissions credited to every member of their group (2 students)" in line
               for line in lines)
    assert any("in no group" in line and "noetheremmy_1005" in line for line in lines)
    assert team.metadata["users"] == [{"name": "teama", "canvas_user_id": "1002"}]  # untouched
    _, (_, _, alone) = report(tmp_path, [team], groups=teams)  # without a roster
    assert {k: v[5] for k, v in alone.items()} == {"1001": "12", "1002": "12"}


def test_a_groups_file_that_is_not_canvass_export_is_refused(tmp_path):
    (tmp_path / "g.csv").write_text("team,who\nA,ada\n")
    with pytest.raises(ValueError, match="group_name column and canvas_user_id"):
        groups.read(tmp_path / "g.csv")


# --- feedback for Canvas's Re-Upload Submissions ------------------------------------------

def canvas_result(sid: str, prefix: str, points: float = 18.0, **kw) -> SubmissionResult:
    r = result(sid, points, **kw)
    r.metadata = {"lms": "canvas", "users": [{"name": sid.split("_")[0],
                                               "canvas_user_id": sid.split("_")[-1]}],
                  "canvas_prefix": prefix}
    return r


def test_feedback_zip_names_each_file_as_the_download_did(tmp_path):
    results = [canvas_result("hoppergrace_1002", "hoppergrace_LATE_1002_50003_", 9.0),
               canvas_result("lovelaceada_1001", "lovelaceada_1001_50007_"),
               canvas_result("babbagecharles_1004", "babbagecharles_1004_50005_", 0.0,
                             error="attention.py is not a notebook")]
    lines, _ = report(tmp_path, results)
    with zipfile.ZipFile(tmp_path / canvas_feedback.NAME) as zf:
        names = zf.namelist()
        page = zf.read("hoppergrace_LATE_1002_50003_feedback.html")
    assert names == ["hoppergrace_LATE_1002_50003_feedback.html",
                     "lovelaceada_1001_50007_feedback.html"]  # the ungraded one is not sent
    assert page == (tmp_path / "hoppergrace_1002" / "feedback.html").read_bytes()
    assert any("Re-Upload Submissions" in line for line in lines)
    assert any("not in it: babbagecharles_1004" in line for line in lines)
    assert canvas_feedback.NAME in report_run.reserved_names(ID)  # no submission takes it


def test_no_feedback_zip_without_a_canvas_download(tmp_path):
    (tmp_path / canvas_feedback.NAME).write_bytes(b"an earlier run's")
    report(tmp_path, [result("ada")])
    assert not (tmp_path / canvas_feedback.NAME).exists()


# --- report.html ---------------------------------------------------------------------

def test_class_report_counts_graded_entries_only(tmp_path):
    """Five graded of six: the mean is theirs, and every table says so."""
    results = [result(f"s{i}", p) for i, p in enumerate((18, 18, 18, 18, 6))]
    results.append(result("pdf", 0.0, error="report.pdf is not a notebook"))
    report(tmp_path, results)
    page = (tmp_path / "report.html").read_text()
    assert page.count("5 graded of 6 entries") >= 3  # header, scores, questions
    assert "<td>mean</td><td class=\"num\">15.6</td>" in page  # (4 * 18 + 6) / 5
    assert "6 submissions" not in page


# --- the command line ------------------------------------------------------------------

def test_the_command_line_options_reach_canvas_csv(tmp_path, monkeypatch, capsys):
    """--canvas-column, --excused and --groups through `grade` (grading stood in for)."""
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "ada.ipynb").write_text("{}")
    (tmp_path / "groups.csv").write_text(GROUPS)
    (tmp_path / "excused.txt").write_text("1003\n")
    out = tmp_path / "out"
    out.mkdir()
    team = result("teama_1002", 12.0, name="teama", canvas_user_id="1002")
    monkeypatch.setattr(pipeline, "hidden_tests_disagree", lambda *args: None)
    monkeypatch.setattr(pipeline, "grade_stage", lambda *a, **k: Batch(
        assignment_mod.load(ID), out, results=[team, result("alan", 3.0, canvas_user_id="1003")]))
    assert cli.main(["grade", str(tmp_path / "subs"), "--assignment", ID, "--out", str(out),
                     "--canvas-column", f"{TITLE} (98765)", "--excused",
                     str(tmp_path / "excused.txt"), "--groups", str(tmp_path / "groups.csv")]) == 0
    head, _, rows = canvas_rows((out / "canvas.csv").read_text())
    assert head[5] == f"{TITLE} (98765)"
    assert {k: v[5] for k, v in rows.items()} == {"1001": "12", "1002": "12", "1003": "EX"}
    assert "must be worth 18 points" in capsys.readouterr().out


def test_quiet_keeps_the_canvas_warning(tmp_path, monkeypatch, capsys):
    """--quiet silences the progress and the table, never a warning: without a
    roster or --canvas-column, the NEW-assignment warning still reaches stderr."""
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "ada.ipynb").write_text("{}")
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(pipeline, "hidden_tests_disagree", lambda *args: None)
    monkeypatch.setattr(pipeline, "grade_stage", lambda *a, **k: Batch(
        assignment_mod.load(ID), out, results=[result("ada")]))
    assert cli.main(["grade", str(tmp_path / "subs"), "--assignment", ID, "--out", str(out),
                     "--quiet"]) == 0
    said = capsys.readouterr()
    assert said.out == ""
    assert "WARNING: " in said.err and "NEW assignment" in said.err


def test_two_entries_with_one_prefix_never_replace_each_other(tmp_path):
    """Two entries of a Canvas download whose prefix is the same (Canvas writes it; the
    first differs in case only): every feedback page is in the zip, each later one renamed
    after the prefix (so Canvas still attaches it to that submission), and the
    instructor is told which."""
    results = [canvas_result("lovelaceada_1001", "lovelaceada_1001_50007_", 9.0),
               canvas_result("lovelaceada_1001.zip", "lovelaceada_1001_50007_"),
               canvas_result("LovelaceAda_1001", "LovelaceAda_1001_50007_", 0.0)]
    for r in results:
        (tmp_path / r.submission).mkdir()
        (tmp_path / r.submission / "feedback.html").write_text(f"feedback of {r.submission}")
    lines = canvas_feedback.write(tmp_path, results)
    with zipfile.ZipFile(tmp_path / canvas_feedback.NAME) as zf:
        pages = {name: zf.read(name).decode() for name in zf.namelist()}
    assert sorted(pages.values()) == [f"feedback of {r.submission}" for r in
                                      sorted(results, key=lambda r: r.submission)]
    assert len({name.casefold() for name in pages}) == 3
    assert all(canvas_feedback.PREFIX.match(name) and name.casefold().startswith(
        "lovelaceada_1001_50007_feedback") for name in pages)
    renamed = [line for line in lines if "renamed" in line]
    assert len(renamed) == 1 and "lovelaceada_1001, lovelaceada_1001.zip" in renamed[0], lines
