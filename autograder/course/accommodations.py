"""Extensions, accommodations and excused students: the policy's
accommodations CSV (`[course] accommodations = "accommodations.csv"`).

    student,assignment,due,extra_days,excused,reason
    s01,hw2_positions_params,2026-02-23T23:59,,,flu
    s02,,,1,,accommodation letter: one more day on every assignment
    s03,hw3_bert_pretraining,,,yes,family emergency

`student` is any identifier of the student that the roster or the LMS has
(SIS user id, e-mail, Canvas user id, or the submission's name); an empty
`assignment` (or *) means every assignment. Each row gives exactly one of a
new due date, extra days on the assignment's due date, or excused. Where
several rows apply to one student, one naming the assignment wins over one
for every assignment, and a later line over an earlier one.

What must stay true: the reason is for the instructor (gradebook.csv's
policy column), never shown to the student; every mistake stops `grade`
before grading with the file and line.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from pathlib import Path

from autograder import registry
from autograder.course.policy_file import PolicyError, parse_due, student_key

COLUMNS = ("student", "assignment", "due", "extra_days", "excused", "reason")
YES, NO = ("yes", "y", "true", "1", "x", "ex"), ("", "no", "n", "false", "0")


@dataclass(frozen=True)
class Accommodation:
    student: str
    """student_key of the identifier as written."""
    assignment: str
    """An assignment id, or "" for every assignment."""
    due: datetime | None = None
    extra_days: float = 0.0
    excused: bool = False
    reason: str = ""
    line: int = 0

    def due_for(self, base: datetime | None) -> datetime | None:
        """The student's due date, given the one they would have had."""
        if self.due is not None:
            return self.due
        return base + timedelta(days=self.extra_days) if base and self.extra_days else base

    def describe(self, shown) -> str:
        """For the student: 'extension to 2026-03-03 23:59 EST' (never the reason)."""
        if self.due is not None:
            return f"extension to {shown(self.due)}"
        return f"{self.extra_days:g} extra day{'s' * (self.extra_days != 1)}"


def read(path: Path, zone: tzinfo | None) -> list[Accommodation]:
    """Raises PolicyError naming the line."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.DictReader(f)
            header = [(h or "").strip().lower() for h in reader.fieldnames or []]
            if "student" not in header:
                raise PolicyError(f"accommodations {path}, line 1: no 'student' column; the "
                                  f"columns are {', '.join(COLUMNS)}")
            reader.fieldnames = header
            return [_row(path, reader.line_num, row, zone) for row in reader
                    if any((v or "").strip() for v in row.values() if isinstance(v, str))]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise PolicyError(f"accommodations {path} cannot be read ({exc}); give a UTF-8 CSV "
                          f"file with the columns {', '.join(COLUMNS)}") from None


def _row(path: Path, line: int, row: dict, zone) -> Accommodation:
    def cell(name: str) -> str:
        value = row.get(name)
        return value.strip() if isinstance(value, str) else ""

    def fail(message: str):
        raise PolicyError(f"accommodations {path}, line {line}: {message}")
    if not cell("student"):
        fail("no student")
    assignment = "" if cell("assignment") in ("", "*") else cell("assignment")
    if assignment and assignment not in registry.ids():
        fail(f"unknown assignment {assignment!r}; known: {', '.join(registry.ids())} "
             "(or leave it empty for every assignment)")
    if cell("excused").lower() not in YES + NO:
        fail(f"excused must be yes or empty, got {cell('excused')!r}")
    excused = cell("excused").lower() in YES
    try:
        due = parse_due(cell("due"), zone) if cell("due") else None
    except ValueError as exc:
        fail(f"due: {exc}")
    try:
        extra = float(cell("extra_days")) if cell("extra_days") else 0.0
    except ValueError:
        extra = -1.0
    if cell("extra_days") and not 0 < extra < 3650:  # nan fails too
        fail(f"extra_days must be a number of days more than 0, got {cell('extra_days')!r}")
    if (due is not None) + bool(extra) + excused != 1:
        fail("give exactly one of due, extra_days and excused")
    return Accommodation(student_key(cell("student")), assignment, due, extra, excused,
                         cell("reason"), line)


def applying(found: list[Accommodation], assignment: str, ids: set[str]) -> Accommodation | None:
    """The row that applies to the student known by `ids` (student_keys) on `assignment`."""
    rows = [a for a in found if a.student in ids and a.assignment in ("", assignment)]
    return max(rows, key=lambda a: (a.assignment != "", a.line), default=None)


def excused_ids(found: list[Accommodation], assignment: str) -> set[str]:
    """The identifiers (student_keys) of the students excused from `assignment`
    (for canvas.csv's EX), as the accommodations name them."""
    return {a.student for a in found if a.assignment in ("", assignment)
            and applying(found, assignment, {a.student}) is a and a.excused}
