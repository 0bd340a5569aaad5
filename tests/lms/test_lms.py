"""Round trips through an LMS: a Canvas download and a Gradescope export in,
gradebooks that Canvas imports out.

A Canvas "Download Submissions" folder (LATE and resubmitted files, a zip,
a .py) and a Gradescope "Export Submissions" folder (a two-member group, a
folder holding the export cell's zip) are graded through the command line,
with and without a Canvas gradebook export as --roster; canvas.csv is read
back the way Canvas's gradebook import reads it.
"""
from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from autograder import cli, paths
from autograder.engine.intake.canvas_download import parse
from autograder.engine.intake.submissions import discover

# Heavy (grades LMS downloads): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

ID = "hw1_attention"
TITLE = "Homework 1: attention and masks"
EXAMPLES = paths.EXAMPLES / ID
LIMITS = ["--limit", "notebook_seconds=20", "--limit", "call_seconds=10"]
CANVAS_COLUMN = f"{TITLE} (98765)"
ROSTER = f"""Student,ID,SIS User ID,SIS Login ID,Section,Current Score,{CANVAS_COLUMN}
    Points Possible,,,,,,18
"Lovelace, Ada",1001,s01,ada,A,,
"Hopper, Grace",1002,s02,grace,A,,
"Turing, Alan",1003,s03,alan,B,,
"Babbage, Charles",1004,s04,charles,B,,
"Noether, Emmy",1005,s05,emmy,B,,
"""
GRADESCOPE_METADATA = """\
submission_2001:
  :submitters:
  - :name: Lovelace Ada
    :sid: s01
    :email: ada@uni.edu
  - :name: Hopper Grace
    :sid: s02
    :email: grace@uni.edu
  :created_at: 2026-03-01 10:00:00.000000000 +00:00
submission_2002:
  :submitters:
  - :name: Turing Alan
    :sid: s03
    :email: alan@uni.edu
  :created_at: 2026-03-01 11:00:00.000000000 +00:00
submission_2003:
  :submitters:
  - :name: Babbage Charles
    :sid: s04
    :email: charles@uni.edu
  :created_at: 2026-03-03 09:00:00.000000000 +00:00
"""


def canvas_import(text: str) -> tuple[str, dict[str, dict]]:
    """Read canvas.csv as Canvas's gradebook import does: the header names
    Student, ID, SIS User ID, SIS Login ID, Section, then the assignment; a
    "Points Possible" row; each other row is a student matched by ID, else
    SIS User ID, else SIS Login ID. Returns (assignment column, {key: row})."""
    rows = list(csv.reader(io.StringIO(text)))
    head = rows[0]
    assert head[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"], head
    assert len(head) == 6, "one score column: the assignment's"
    assert "Points Possible" in rows[1][0] and rows[1][5] == "18"
    students = {}
    for row in rows[2:]:
        assert len(row) == 6, row
        key = row[1] or row[2] or row[3]
        assert key, f"Canvas could not match {row}"
        students[key] = dict(zip(head, row))
    return head[5], students


def grade(subs: Path, out: Path, *extra: str) -> int:
    return cli.main(["grade", str(subs), "--assignment", ID, "--out", str(out), "--quiet",
                     *LIMITS, *extra])


def read_rows(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# --- Canvas ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def canvas(tmp_path_factory):
    """A Canvas download graded twice: with its gradebook export as roster, and without."""
    root = tmp_path_factory.mktemp("canvas")
    subs = root / "submissions"
    subs.mkdir()
    files = {  # Canvas's names: <name>[_LATE]_<user id>_<submission id>_<original name>
        "lovelaceada_1001_50001_hw1_attention.ipynb": "untouched.ipynb",
        "lovelaceada_1001_50007_hw1_attention-1.ipynb": "full_solution.ipynb",  # resubmitted
        "hoppergrace_LATE_1002_50003_hw1_attention.ipynb": "partial_mistakes.ipynb",
        "turingalan_1003_50004_hw1_attention.zip": "otter_export.zip",
        "babbagecharles_1004_50005_attention.py": None,
    }
    for name, example in files.items():
        if example:
            shutil.copyfile(EXAMPLES / example, subs / name)
        else:
            (subs / name).write_text("def causal_mask(n):\n    pass\n")
    (root / "roster.csv").write_text(ROSTER)
    assert grade(subs, root / "with_roster", "--roster", str(root / "roster.csv")) == 0
    assert grade(subs, root / "alone") == 0
    return root


def test_canvas_names_are_recognised():
    """Are the user id, the name, LATE and the original name read from Canvas's prefix only?"""
    f = parse(Path("hoppergrace_LATE_1002_50003_my_hw_LATE_9_9_x-2.ipynb"))
    assert (f.name, f.user_id, f.submission_id, f.late) == ("hoppergrace", "1002", "50003", True)
    assert f.original == "my_hw_LATE_9_9_x-2.ipynb" and f.entry_id == "hoppergrace_1002"
    assert f.order[:2] == (50003, 2)
    assert parse(Path("hw1_attention.ipynb")) is None and parse(Path("submission_12")) is None


@pytest.mark.parametrize("original", ["hw1_attention.ipynb\n", "hw1\n_attention.ipynb"])
def test_canvas_names_are_read_to_the_end(tmp_path, original):
    """A newline in the name the student gave the file: still Canvas's user 1002, still
    recorded late (once the file was left unclaimed and its LATE mark lost)."""
    (tmp_path / f"hoppergrace_LATE_1002_50003_{original}").write_text("{}")
    (entry,), _ = discover(tmp_path)
    assert entry.id == "hoppergrace_1002"
    assert entry.metadata["late"] is True and entry.metadata["users"][0]["canvas_user_id"] == "1002"
    assert parse(Path("adalovelace_\u0661\u0662_50003_x.ipynb")) is None  # ids: ASCII digits


def test_canvas_download_with_roster(canvas):
    """Is every student matched by Canvas user id, with the status Canvas and grading give?"""
    book = {r["student"]: r for r in read_rows(canvas / "with_roster" / "gradebook.csv")}
    grades = {r["submission"]: r for r in read_rows(canvas / "with_roster" / "grades.csv")}
    assert {name: (r["submission"], r["status"]) for name, r in book.items()} == {
        "Lovelace, Ada": ("lovelaceada_1001", "graded"),
        "Hopper, Grace": ("hoppergrace_1002", "late"),
        "Turing, Alan": ("turingalan_1003", "graded"),
        "Babbage, Charles": ("babbagecharles_1004", "not graded"),
        "Noether, Emmy": ("", "missing")}
    assert all(r["on_roster"] == "yes" for r in book.values())
    assert set(grades) == {"lovelaceada_1001", "hoppergrace_1002", "turingalan_1003",
                           "babbagecharles_1004"}
    assert book["Hopper, Grace"]["late_by"] == "recorded late by Canvas"
    assert "the latest notebook or zip, hw1_attention-1.ipynb, is graded" in \
        book["Lovelace, Ada"]["note"]
    assert "attention.py is not a notebook, so it was not graded" in \
        book["Babbage, Charles"]["note"]
    feedback = (canvas / "with_roster" / "hoppergrace_1002" / "feedback.md").read_text()
    assert "Canvas recorded this submission as late." in feedback


def test_canvas_csv_imports_into_the_roster_column(canvas):
    """Does canvas.csv fill Canvas's own columns, ID = Canvas user id, and the export's
    own assignment column, with each student's score (missing and not graded blank)?"""
    column, students = canvas_import((canvas / "with_roster" / "canvas.csv").read_text())
    grades = {r["submission"]: float(r["total"])
              for r in read_rows(canvas / "with_roster" / "grades.csv")}
    assert column == CANVAS_COLUMN
    assert {k: (s["SIS User ID"], s["SIS Login ID"], s["Section"]) for k, s in students.items()} \
        == {"1001": ("s01", "ada", "A"), "1002": ("s02", "grace", "A"),
            "1003": ("s03", "alan", "B"), "1004": ("s04", "charles", "B"),
            "1005": ("s05", "emmy", "B")}
    scores = {k: s[column] for k, s in students.items()}
    assert scores == {"1001": "18", "1002": f"{grades['hoppergrace_1002']:g}", "1003": "18",
                      "1004": "", "1005": ""}  # 1004 sent a .py: not graded, no score
    assert 0 < grades["hoppergrace_1002"] < 18


def test_canvas_download_without_roster(canvas):
    """Without a roster, does canvas.csv still carry the Canvas user id from the file names?"""
    column, students = canvas_import((canvas / "alone" / "canvas.csv").read_text())
    assert column == TITLE
    assert {k: (s["Student"], s[column]) for k, s in students.items()} == {
        "1001": ("lovelaceada", "18"), "1002": ("hoppergrace", students["1002"][column]),
        "1003": ("turingalan", "18"), "1004": ("babbagecharles", "")}
    statuses = {r["submission"]: r["status"] for r in read_rows(canvas / "alone" / "gradebook.csv")}
    assert statuses["hoppergrace_1002"] == "late"


# --- Gradescope --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def gradescope(tmp_path_factory):
    """A Gradescope export: a group of two, a folder holding the export cell's zip, a late one."""
    root = tmp_path_factory.mktemp("gradescope")
    subs = root / "export"
    for folder, example in (("submission_2001", "full_solution.ipynb"),
                            ("submission_2002", "otter_export.zip"),
                            ("submission_2003", "partial_mistakes.ipynb")):
        (subs / folder).mkdir(parents=True)
        target = "hw1_attention_2026_03_01T11_00_00.zip" if example.endswith(".zip") \
            else "hw1_attention.ipynb"
        shutil.copyfile(EXAMPLES / example, subs / folder / target)
    (subs / "submission_metadata.yml").write_text(GRADESCOPE_METADATA)
    (root / "roster.csv").write_text(ROSTER)
    assert grade(subs, root / "with_roster", "--roster", str(root / "roster.csv"),
                 "--due", "2026-03-02T00:00+00:00") == 0
    assert grade(subs, root / "alone") == 0
    return root


def test_group_members_and_the_export_zip_folder(gradescope):
    """Does each member of the group get the group's score, and the folder holding
    only the export cell's zip get graded like a zip?"""
    book = {r["student"]: r for r in read_rows(gradescope / "with_roster" / "gradebook.csv")}
    assert {n: (r["submission"], r["status"], r["total"]) for n, r in book.items()} == {
        "Lovelace, Ada": ("submission_2001", "graded", "18"),
        "Hopper, Grace": ("submission_2001", "graded", "18"),
        "Turing, Alan": ("submission_2002", "graded", "18"),
        "Babbage, Charles": ("submission_2003", "late", book["Babbage, Charles"]["total"]),
        "Noether, Emmy": ("", "missing", "")}
    assert 0 < float(book["Babbage, Charles"]["total"]) < 18
    assert "group submission of Lovelace Ada, Hopper Grace" in book["Hopper, Grace"]["note"]
    _, students = canvas_import((gradescope / "with_roster" / "canvas.csv").read_text())
    assert {k: s[CANVAS_COLUMN] for k, s in students.items()} == {
        "1001": "18", "1002": "18", "1003": "18",
        "1004": book["Babbage, Charles"]["total"], "1005": ""}


def test_group_without_roster_lists_every_member(gradescope):
    """Without a roster, is each submitter a row of gradebook.csv and canvas.csv,
    keyed by Gradescope's sid and e-mail?"""
    book = read_rows(gradescope / "alone" / "gradebook.csv")
    assert [(r["student"], r["submission"], r["total"]) for r in book][:3] == [
        ("Lovelace Ada", "submission_2001", "18"), ("Hopper Grace", "submission_2001", "18"),
        ("Turing Alan", "submission_2002", "18")]
    column, students = canvas_import((gradescope / "alone" / "canvas.csv").read_text())
    assert {k: (s["SIS Login ID"], s[column]) for k, s in students.items()} == {
        "s01": ("ada@uni.edu", "18"), "s02": ("grace@uni.edu", "18"),
        "s03": ("alan@uni.edu", "18"), "s04": ("charles@uni.edu", book[3]["total"])}
