"""Gradebook exports beside the contract's grades.csv.

DIR/gradebook.csv: one row per student (per roster row when there is a
roster, else per submitter of each submission: every member of a group gets
the group's row) with a status: graded, late, missing (on the roster, no
submission), ambiguous (several submissions name this roster row: none is
taken, the note says which), not graded (the submission could not be run,
or was not a notebook) or needs regrade (a hidden test raised on the
grader's side: its points are withheld, the note names it, and canvas.csv
leaves the score blank until the regrade), or excused (--policy: no score); a
submission no roster row claims is listed with on_roster "no", and the note
says why when the match was unclear. With --policy, total stays the raw
score and late_days, penalty, final and policy (how, for the instructor) say
what the course policy made of it (course/penalties.py). With
rubric scores merged (course/manual_scores.py), total includes the points
graded by hand, and a row with a manual question not graded yet is "not yet
graded" (the note names the questions; canvas.csv leaves its score blank).

DIR/canvas.csv: Canvas's gradebook import format (Student, ID, SIS User ID,
SIS Login ID, Section, then one column for this assignment and a "Points
Possible" row). Canvas matches a row to a student by ID (its user id), then
SIS User ID, then SIS Login ID, then the name. Keyed by the roster's
identifiers; without a roster by what the submission says: the Canvas user
id of a Canvas download, the sid and e-mail of a Gradescope submitter, else
the submission id (as SIS Login ID). The score column is chosen by
report/canvas.py. Missing students, entries that were not graded (not a
notebook, unreadable: the reason is gradebook.csv's note) and scores waiting
for a regrade or a manual score get an empty cell, which Canvas leaves ungraded, never a 0;
excused students get EX. Scores are out of the Canvas assignment's points
possible when it differs from the assignment's (scaled).

Names and notes are the students' text: like every CSV of the package, both
files are made by writing.csv_text, which writes a cell a spreadsheet would
run as a formula (starting with = + - @) with a leading apostrophe.
"""
from __future__ import annotations

from dataclasses import dataclass

from autograder import guard
from autograder.engine.results import SubmissionResult
from autograder.course import roster
from autograder.course.lateness import Timing
from autograder.course.policy import Outcome, duration
from autograder.course.roster import RosterStudent
from autograder.writing import csv_text

GRADEBOOK_COLUMNS = ["student", "section", "submission", "status", "on_roster", "total",
                     "max_total", "percent", "submitted", "late_by", "late_days", "penalty",
                     "final", "policy", "note"]
"""total is the raw score (as in grades.csv); final is what canvas.csv gets:
total less the late penalty of --policy (total itself without one)."""
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
    outcome: Outcome | None = None
    """What the course policy made of it (course/penalties.py); None without --policy."""
    pending: tuple[str, ...] = ()
    """The manual questions of its submission without a grader's score yet."""

    @property
    def status(self) -> str:
        if self.outcome is not None and self.outcome.excused:
            return "excused"
        if self.result is None:
            return "ambiguous" if self.problem else "missing"
        if self.result.error:
            return "not graded"
        if self.result.needs_regrade:
            return "needs regrade"
        if self.pending:
            return "not yet graded"
        if self.outcome is not None:  # late against the student's own due date
            return "late" if self.outcome.late else "graded"
        return "late" if self.timing and self.timing.late else "graded"

    @property
    def final(self) -> float | None:
        """The score canvas.csv gets: the policy's final, else the raw score."""
        if self.outcome is not None:
            return self.outcome.final
        return self.result.score if self.result is not None else None

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
        graded = r is not None and not r.error  # an entry not graded has no score, not 0
        return [row.name, row.student.section if row.student else "",
                r.submission if r else "", row.status, row.on_roster,
                _num(r.score) if graded else "", _num(max_total),
                f"{100 * r.score / max_total:.1f}" if graded and max_total else "",
                t.submitted.isoformat(timespec="seconds") if t and t.submitted else "",
                _late_by(row), *(_policy_cells(row) if graded else ["", "", "", ""]), row.note]

    def unwritten(row: Row, error: str) -> list:
        sid = row.result.submission if row.result else ""
        return ["", "", sid, *[""] * (len(GRADEBOOK_COLUMNS) - 4),
                f"this row could not be written ({error}, logged); see {sid}/results.json"]
    return csv_text([GRADEBOOK_COLUMNS, *_each_row(rows, cells, unwritten)])


EXCUSED = "EX"
"""What Canvas's gradebook import reads as "excused"."""


def canvas_csv(rows: list[Row], column: str, max_total: float,
               points_possible: float | None = None,
               excused: frozenset[str] | set[str] = frozenset()) -> str:
    """`points_possible`: the Canvas assignment's, when it differs from
    max_total (scores are scaled to it, to 2 decimals); `excused`: identifiers
    (case-folded) of rows that get EX (excused_row), as do rows the course
    policy excused. The score is the row's final (the policy's, else the raw one)."""
    out_of = points_possible or max_total

    def score(row: Row) -> str:
        if not scored(row) or row.final is None:  # final None: the policy gave none
            return ""
        if points_possible and max_total:
            return _num(round(row.final * points_possible / max_total, 2))
        return _num(row.final)

    def cells(row: Row) -> list:
        policy_excused = row.outcome is not None and row.outcome.excused
        return [*_canvas_ids(row),
                EXCUSED if policy_excused or excused_row(row, excused) else score(row)]
    placed = [row for row in rows if in_canvas(row)]
    return csv_text([[*CANVAS_ID_COLUMNS, column],
                     ["Points Possible", "", "", "", "", _num(out_of)],
                     *_each_row(placed, cells, lambda row, error: None)])  # gradebook.csv says


def _late_by(row: Row) -> str:
    o = row.outcome
    if o is not None and not o.recorded_late:
        return duration(o.late_seconds) if o.late_seconds else ""
    return row.timing.late_by if row.timing else ""


def _policy_cells(row: Row) -> list[str]:
    """late_days, penalty, final, policy."""
    o = row.outcome
    if o is None:
        return ["", "", _num(row.final) if row.final is not None else "", ""]
    if o.final is None:  # excused, or the policy could not be applied: no score to give
        return ["", "", "", o.note]
    return [str(o.late_days) if o.late_days else "", _num(o.penalty), _num(o.final), o.note]
def in_canvas(row: Row) -> bool:
    """Whether the row is one Canvas can place: on the roster, or (without one) a
    submitter Canvas knows ("no": no roster row; anonymous: no Canvas user id)."""
    if row.on_roster == "no":
        return False
    return row.student is not None or not _anonymous(row.member or {})


def scored(row: Row) -> bool:
    """Whether the row has a score for Canvas: graded, not waiting for a regrade
    (points withheld) or for a manual score, not an entry that could not be
    graded (its 0 is no score)."""
    r = row.result
    return r is not None and not r.error and not r.needs_regrade and not row.pending


def excused_row(row: Row, excused) -> bool:
    """Whether one of the row's identifiers (roster keys, submission id,
    submitter's ids) is in `excused` (case-folded)."""
    return bool(excused) and not excused.isdisjoint(identifiers(row))


def identifiers(row: Row) -> set[str]:
    """Every identifier naming this row, case-folded: the roster's keys (else
    the submitter's ids), the submission id."""
    if row.student is not None:  # its own keys, never a group partner's
        found = set(row.student.keys.values())
    else:
        found = {v for k, v in (row.member or {}).items() if k != "name" and isinstance(v, str)}
    if row.result is not None:
        found |= {row.result.submission, row.result.submitter}
    return {v.strip().casefold() for v in found if v and v.strip()}


def _anonymous(member: dict) -> bool:
    return isinstance(member.get("canvas_anonymous_id"), str) and not member.get("canvas_user_id")


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
