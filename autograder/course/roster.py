"""The class roster: who should have submitted, and which submission is whose.

A roster is a CSV file with a header row, with at least one column named
like an identifier (KEY_COLUMNS) and optionally name (or student) and
section; a Canvas gradebook export works as is.

Who submitted comes only from the platform (engine/intake/submissions.py): a Canvas
download's user id, Gradescope's sid and e-mail, else the file or folder
name. Each kind is matched exactly (case and surrounding spaces aside)
against its own roster columns, declared once in KEYS: Canvas's user id
against ID only, an e-mail whole against the e-mail and login columns, never
its part before the @ alone. What must stay true: nothing is guessed. A
submitter who names several roster rows, a row that several submissions
name, and a partial match (an e-mail whose local part is a row's login) are
reported, in gradebook.csv's note and the printed summary, and left
unmatched: a wrong match would put one student's score on another's row of
canvas.csv.

A group submission (Gradescope's submitters, several users) belongs to each
of its members: each member's roster row gets it.
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from autograder.engine.results import SubmissionResult

CANVAS_ASSIGNMENT = re.compile(r"(?P<title>.*\S)\s*\((?P<id>\d+)\)\s*")
"""A Canvas export names each assignment's column "<title> (<assignment id>)"."""
KEY_COLUMNS = ("submission", "id", "sis user id", "sis login id", "login", "username",
               "user", "email", "e-mail", "sid", "student id")
KEYS = {
    "canvas_user_id": ("id",),  # a Canvas download names its files with Canvas's user id
    "sid": ("sid", "student id", "sis user id"),  # Gradescope's student id
    "email": ("email", "e-mail", "sis login id", "login"),  # Gradescope's e-mail, whole
    "submission": KEY_COLUMNS,  # a file or folder name, where no platform says who
}
"""Which roster columns each kind of identifier is matched against: one
declared key per kind, never any value against any column."""
NAME_COLUMNS = ("name", "student", "student name", "full name")
ANONYMOUS = ("an anonymous assignment's Canvas download names no student (no Canvas user "
             "id, only an anonymous id), so no roster row can be matched and canvas.csv "
             "leaves it out: enter the score in SpeedGrader, or download the submissions "
             "again once the assignment's anonymity is lifted")


class RosterError(Exception):
    """The roster cannot be used; the message says how to fix it."""


@dataclass
class RosterStudent:
    """One row of the roster (a student of the class), not the notebook proxy
    engine.driving.student.Student."""

    name: str
    keys: dict[str, str]
    """Identifier column (lower case) -> value, as written in the roster."""
    section: str = ""
    row: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.name or next((v for v in self.keys.values() if v), "?")


@dataclass
class Roster:
    students: list[RosterStudent]
    columns: list[str]
    """The header as written (a Canvas export's assignment columns among them)."""
    points_possible: dict[str, str] = field(default_factory=dict)
    """Column -> its cell of a Canvas export's "Points Possible" row, as written
    ({} when the roster has no such row)."""

    def assignment_columns(self) -> list[str]:
        """The headers that name a Canvas assignment ("<title> (<id>)"), in order."""
        return [h for h in self.columns if CANVAS_ASSIGNMENT.fullmatch(h or "")]

    def assignment_column(self, assignment_id: str, title: str, canvas_id: str = "") -> str | None:
        """The header of this assignment's column in a Canvas export
        ("Homework 1 (123456)"), so that an import updates it instead of
        adding a new one: the one with Canvas id `canvas_id` if given, else
        the one whose title is `title` or `assignment_id` (case and spaces
        aside); None when none is, or several are (nothing is guessed)."""
        found = [(h, m) for h in self.columns if (m := CANVAS_ASSIGNMENT.fullmatch(h or ""))]
        if canvas_id:
            by_id = [h for h, m in found if m.group("id") == canvas_id]
            return by_id[0] if len(by_id) == 1 else None
        wanted = {same_title(title), same_title(assignment_id)}
        by_title = [h for h, m in found if same_title(m.group("title")) in wanted]
        return by_title[0] if len(by_title) == 1 else None

    def points_of(self, column: str) -> float | None:
        """The column's points possible, when the roster says a positive number."""
        try:
            points = float((self.points_possible.get(column) or "").strip())
        except ValueError:
            return None
        return points if 0 < points < float("inf") else None


def same_title(title: str) -> str:
    """A title as compared with another: case and every space aside."""
    return re.sub(r"\s+", "", title).casefold()


def read(path: Path) -> Roster:
    if not path.is_file():
        raise RosterError(f"roster {path} does not exist; give a CSV file with a header row")
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise RosterError(f"roster {path} is not a readable UTF-8 CSV file ({exc})") from None
    header = {(h or "").strip().lower(): h for h in (rows[0].keys() if rows else [])}
    keys = [header[k] for k in KEY_COLUMNS if k in header]
    if not keys:
        raise RosterError(f"roster {path}: no identifier column; name one of its columns "
                          f"{', '.join(repr(k) for k in KEY_COLUMNS[:3])} or 'email', holding "
                          "the submission ids (the file or folder names of the submissions)")
    name = next((header[k] for k in NAME_COLUMNS if k in header), None)
    section = header.get("section")
    students, points = [], {}
    for row in rows:
        label = (row.get(name) or "").strip() if name else ""
        if label.lower() == "points possible":  # the second row of a Canvas export
            points = {h: v for h, v in row.items() if isinstance(h, str) and isinstance(v, str)}
            continue
        students.append(RosterStudent(label, {k.strip().lower(): (row.get(k) or "").strip() for k in keys},
                                      (row.get(section) or "").strip() if section else "", row))
    return Roster(students, [h for h in header.values()], points)


def members(result: SubmissionResult) -> list[dict]:
    """The users the LMS says submitted it (several for a group); [{}] when it says nothing."""
    users = (result.metadata or {}).get("users")
    found = [u for u in users if isinstance(u, dict)] if isinstance(users, list) else []
    return found or [{}]


def identities(result: SubmissionResult, member: dict) -> list[tuple[str, str]]:
    """(kind, identifier) pairs that name this member of the submission, from
    the platform only (a kind of KEYS, the identifier case-folded): a Canvas
    download's user id, Gradescope's sid and e-mail, else, where no platform
    says who, the entry's own name."""
    found = [(kind, _fold(member[kind])) for kind in ("canvas_user_id", "sid", "email")
             if isinstance(member.get(kind), str) and _fold(member[kind])]
    if not found and member == {}:  # no platform names anyone: the file or folder's name does
        found.append(("submission", _fold(result.submitter or result.submission)))
    return found


@dataclass
class Matching:
    """Each roster student with their submission (None when missing or
    unclear) and the submissions no roster row claims; what was unclear, for
    gradebook.csv's note and the printed summary."""
    pairs: list[tuple[RosterStudent, SubmissionResult | None]]
    unclaimed: list[SubmissionResult]
    unclear_rows: dict[int, str] = field(default_factory=dict)
    """Index in `pairs` -> why that row has no submission though one names it."""
    unclear_submissions: dict[str, str] = field(default_factory=dict)
    """Submission id -> why (one of) its submitters matched no row."""


def match(students: list[RosterStudent], results: list[SubmissionResult]) -> Matching:
    """Match on identifiers only, exactly (case aside), each kind against its
    own columns (KEYS). A member who names several roster rows, and a row
    that several submissions name, are reported and left unmatched; so is a
    Gradescope e-mail whose local part alone equals a row's login. Each
    member of a group submission claims their own row."""
    index = _index(students)
    claims: dict[int, dict[int, SubmissionResult]] = {}  # row -> {id(result): result}
    unclear: dict[str, str] = {}
    for r in results:
        for m in members(r):
            rows = sorted({row for kind, value in identities(r, m) for column in KEYS[kind]
                           for row in index.get((column, value), ())})
            if len(rows) == 1:
                claims.setdefault(rows[0], {})[id(r)] = r
            elif rows:
                unclear.setdefault(r.submission, (
                    f"{_who(r, m)} matches {len(rows)} roster rows ("
                    f"{', '.join(students[i].label for i in rows[:5])}): not matched to any; "
                    "make the roster's identifiers unique"))
            elif isinstance(m.get("canvas_anonymous_id"), str):
                unclear.setdefault(r.submission, ANONYMOUS)
            elif (partial := _local_part_match(m, index, students)) is not None:
                unclear.setdefault(r.submission, (
                    f"{_who(r, m)}'s e-mail matches roster row {partial.label} only by the "
                    "part before the @: not matched (an e-mail counts whole); if it is "
                    "theirs, add it to the roster's email column"))
    pairs, unclear_rows = [], {}
    for i, s in enumerate(students):
        claimants = list(claims.get(i, {}).values())
        if len(claimants) > 1:
            named = ", ".join(r.submission for r in claimants[:5])
            unclear_rows[i] = (f"{len(claimants)} submissions match this roster row ({named}): "
                               "none is put in canvas.csv; keep the one that counts")
            for r in claimants:
                unclear.setdefault(r.submission, f"matches roster row {s.label}, as other "
                                   f"submissions do ({named}): not matched")
        pairs.append((s, claimants[0] if len(claimants) == 1 else None))
    claimed = {id(r) for _, r in pairs if r is not None}
    return Matching(pairs, [r for r in results if id(r) not in claimed], unclear_rows, unclear)


def _fold(value: str) -> str:
    return value.strip().casefold()


def _index(students: list[RosterStudent]) -> dict[tuple[str, str], list[int]]:
    """(column, case-folded identifier) -> the rows holding it."""
    index: dict[tuple[str, str], list[int]] = {}
    for i, s in enumerate(students):
        for column, value in s.keys.items():
            if _fold(value):
                index.setdefault((column, _fold(value)), []).append(i)
    return index


def _local_part_match(member: dict, index, students) -> RosterStudent | None:
    """The row whose login is this member's e-mail before the @, if one is (a
    partial match, reported, never taken)."""
    email = member.get("email")
    local = _fold(email.split("@")[0]) if isinstance(email, str) and "@" in email else ""
    rows = {row for column in KEY_COLUMNS for row in index.get((column, local), ())} \
        if local else set()
    return students[min(rows)] if rows else None


def _who(result: SubmissionResult, member: dict) -> str:
    name = member.get("name")
    return result.submission + (f" ({name})" if isinstance(name, str) and name else "")
