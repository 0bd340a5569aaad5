"""Gradebook exports beside the contract's grades.csv.

DIR/gradebook.csv: one row per student (per roster row when there is a
roster, else per submission) with a status: graded, late, missing (on the
roster, no submission) or not graded (the submission could not be run); a
submission no roster row claims is listed with on_roster "no".

DIR/canvas.csv: Canvas's gradebook import format (Student, ID, SIS User ID,
SIS Login ID, Section, then one column for this assignment and a "Points
Possible" row). Keyed by the roster's identifiers, or by the submission id
(as SIS Login ID) without a roster. Missing students get an empty cell, which
Canvas leaves ungraded.

Names and notes are the students' text: a cell that a spreadsheet would run
as a formula (starting with = + - @) is written with a leading apostrophe.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from autograder.engine.results import SubmissionResult
from autograder.report.lateness import Timing, duration
from autograder.report.roster import Student

GRADEBOOK_COLUMNS = ["student", "section", "submission", "status", "on_roster", "total",
                     "max_total", "percent", "submitted", "late_by", "note"]
CANVAS_ID_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


@dataclass(frozen=True)
class Row:
    """One student's line: a roster student, a submission, or both."""
    student: Student | None
    result: SubmissionResult | None
    timing: Timing | None
    on_roster: str
    """"yes", "no" or "" (no roster given)."""

    @property
    def status(self) -> str:
        if self.result is None:
            return "missing"
        if self.result.error:
            return "not graded"
        return "late" if self.timing and self.timing.late else "graded"

    @property
    def name(self) -> str:
        if self.student is not None:
            return self.student.label
        users = (self.result.metadata or {}).get("users") if self.result else None
        if isinstance(users, list) and users and isinstance(users[0], dict):
            return ", ".join(str(u.get("name", "")) for u in users if isinstance(u, dict))
        return self.result.submission if self.result else ""


def gradebook_csv(rows: list[Row], max_total: float) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(GRADEBOOK_COLUMNS)
    for row in rows:
        r, t = row.result, row.timing
        w.writerow([_text(row.name), _text(row.student.section if row.student else ""),
                    r.submission if r else "", row.status, row.on_roster,
                    _num(r.score) if r else "", _num(max_total),
                    f"{100 * r.score / max_total:.1f}" if r and max_total else "",
                    t.submitted.isoformat(timespec="seconds") if t and t.submitted else "",
                    duration(t.late_seconds) if t and t.late else "",
                    _text((r.error or (r.notes[0] if r.notes else "")) if r else "")])
    return buf.getvalue()


def canvas_csv(rows: list[Row], column: str, max_total: float) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*CANVAS_ID_COLUMNS, column])
    w.writerow(["Points Possible", "", "", "", "", _num(max_total)])
    for row in rows:
        if row.on_roster == "no":  # Canvas could not match it to anyone
            continue
        w.writerow([*_canvas_ids(row), _num(row.result.score) if row.result else ""])
    return buf.getvalue()


def _canvas_ids(row: Row) -> list[str]:
    if row.student is None:
        return [_text(row.name), "", "", row.result.submission, ""]
    keys = row.student.keys
    login = keys.get("sis login id") or keys.get("login") or keys.get("username") \
        or keys.get("submission") or keys.get("email") or ""
    return [_text(row.student.label), keys.get("id", ""), keys.get("sis user id", ""), login,
            _text(row.student.section)]


def _text(value: str) -> str:
    """Text a spreadsheet shows as text, never evaluates."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _num(x: float) -> str:
    return f"{x:g}"
