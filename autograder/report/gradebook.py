"""Gradebook exports beside the contract's grades.csv.

DIR/gradebook.csv: one row per student (per roster row when there is a
roster, else per submitter of each submission: every member of a group gets
the group's row) with a status: graded, late, missing (on the roster, no
submission), ambiguous (several submissions name this roster row: none is
taken, the note says which), not graded (the submission could not be run,
or was not a notebook) or needs regrade (a hidden test raised on the
grader's side: its points are withheld, the note names it, and canvas.csv
leaves the score blank until the regrade); a submission no roster row claims is listed with
on_roster "no", and the note says why when the match was unclear. With
rubric scores merged (report/manual_scores.py), total includes the points
graded by hand, and a row with a manual question not graded yet is "not yet
graded" (the note names the questions; canvas.csv leaves its score blank).

DIR/canvas.csv: Canvas's gradebook import format (Student, ID, SIS User ID,
SIS Login ID, Section, then one column for this assignment and a "Points
Possible" row). Canvas matches a row to a student by ID (its user id), then
SIS User ID, then SIS Login ID, then the name. Keyed by the roster's
identifiers; without a roster by what the submission says: the Canvas user
id of a Canvas download, the sid and e-mail of a Gradescope submitter, else
the submission id (as SIS Login ID). The score column is the roster's own
column for this assignment when it is a Canvas export ("<title> (<id>)"),
else the assignment's title. Missing students get an empty cell, which
Canvas leaves ungraded.

Names and notes are the students' text: like every CSV of the package, both
files are made by writing.csv_text, which writes a cell a spreadsheet would
run as a formula (starting with = + - @) with a leading apostrophe.
"""
from __future__ import annotations

from dataclasses import dataclass

from autograder.engine.results import SubmissionResult
from autograder.report.lateness import Timing
from autograder.report import guard, roster
from autograder.report.roster import RosterStudent
from autograder.writing import csv_text

GRADEBOOK_COLUMNS = ["student", "section", "submission", "status", "on_roster", "total",
                     "max_total", "percent", "submitted", "late_by", "note"]
CANVAS_ID_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


@dataclass(frozen=True)
class Row:
    """One student's line: a roster student, a submission, or both."""
    student: RosterStudent | None
    result: SubmissionResult | None
    timing: Timing | None
    on_roster: str
    """"yes", "no" or "" (no roster given)."""
    member: dict | None = None
    """Without a roster: the submitter this row is for (one row per member of a group)."""
    problem: str = ""
    """Why matching the roster left this row or submission unmatched (roster.Matching)."""
    pending: tuple[str, ...] = ()
    """The manual questions of its submission without a grader's score yet."""

    @property
    def status(self) -> str:
        if self.result is None:
            return "ambiguous" if self.problem else "missing"
        if self.result.error:
            return "not graded"
        if self.result.needs_regrade:
            return "needs regrade"
        if self.pending:
            return "not yet graded"
        return "late" if self.timing and self.timing.late else "graded"

    @property
    def name(self) -> str:
        if self.student is not None:
            return self.student.label
        users = [self.member] if self.member is not None else \
            roster.members(self.result) if self.result else []
        names = [u["name"] for u in users if isinstance(u.get("name"), str) and u["name"]]
        return ", ".join(names) or (self.result.submission if self.result else "")

    @property
    def note(self) -> str:
        """Why the roster match is unclear, else the error, else the first note,
        else who shares a group submission."""
        r = self.result
        if self.problem or r is None:
            return self.problem
        if r.error:
            return r.error
        if r.needs_regrade:
            return "points withheld: " + withheld(r)
        if self.pending:
            return "not yet graded by hand: " + ", ".join(self.pending)
        if r.notes:
            return r.notes[0]
        group = roster.members(r)
        if len(group) < 2:
            return ""
        return "group submission of " + ", ".join(str(u.get("name", "?")) for u in group)


def gradebook_csv(rows: list[Row], max_total: float) -> str:
    def cells(row: Row) -> list:
        r, t = row.result, row.timing
        return [row.name, row.student.section if row.student else "",
                r.submission if r else "", row.status, row.on_roster,
                _num(r.score) if r else "", _num(max_total),
                f"{100 * r.score / max_total:.1f}" if r and max_total else "",
                t.submitted.isoformat(timespec="seconds") if t and t.submitted else "",
                t.late_by if t else "", row.note]

    def unwritten(row: Row, error: str) -> list:
        sid = row.result.submission if row.result else ""
        return ["", "", sid, *[""] * (len(GRADEBOOK_COLUMNS) - 4),
                f"this row could not be written ({error}, logged); see {sid}/results.json"]
    return csv_text([GRADEBOOK_COLUMNS, *_each_row(rows, cells, unwritten)])


def canvas_csv(rows: list[Row], column: str, max_total: float) -> str:
    def cells(row: Row) -> list:  # a score with points withheld or not yet graded waits: blank
        graded = row.result is not None and not row.result.needs_regrade and not row.pending
        return [*_canvas_ids(row), _num(row.result.score) if graded else ""]
    placed = [row for row in rows if row.on_roster != "no"]  # "no": Canvas could not match it
    return csv_text([[*CANVAS_ID_COLUMNS, column],
                     ["Points Possible", "", "", "", "", _num(max_total)],
                     *_each_row(placed, cells, lambda row, error: None)])  # gradebook.csv says


def withheld(result: SubmissionResult) -> str:
    """Which tests raised on the grader's side, for the instructor."""
    return ", ".join(f"{t.question}::{t.name} ({t.grader_error})" for t in result.needs_regrade)


def _each_row(rows: list[Row], cells, unwritten) -> list[list]:
    """cells(row) for each row; a row whose cells fail is unwritten(row, why)
    instead (left out when that is None), never the end of the file."""
    made = []
    for row in rows:
        line, error = guard.attempt("a gradebook row", cells, row)
        line = unwritten(row, error) if error else line
        if line is not None:
            made.append(line)
    return made


def _canvas_ids(row: Row) -> list[str]:
    if row.student is None:
        return [row.name, *_member_ids(row.member or {}, row.result.submission), ""]
    keys = row.student.keys
    login = keys.get("sis login id") or keys.get("login") or keys.get("username") \
        or keys.get("submission") or keys.get("email") or ""
    return [row.student.label, keys.get("id", ""), keys.get("sis user id", ""), login,
            row.student.section]


def _member_ids(member: dict, submission: str) -> list[str]:
    """ID, SIS User ID, SIS Login ID of a submitter without a roster."""
    def field(key: str) -> str:
        value = member.get(key)
        return value if isinstance(value, str) else ""
    if field("canvas_user_id"):
        return [field("canvas_user_id"), "", ""]
    if field("sid") or field("email"):
        return ["", field("sid"), field("email")]
    return ["", "", submission]


def _num(x: float) -> str:
    return f"{x:g}"
