"""The class roster: who should have submitted, and which submission is whose.

A roster is a CSV file with a header row. Any column named like an
identifier (submission, id, sis user id, sis login id, login, username,
email, sid) is matched against the submission ids, case-insensitively, and
against the e-mail and student id in Gradescope's metadata; a Canvas
gradebook export works as is: its ID column is Canvas's user id, which a
Canvas download names each file with. Optional columns: name (or student),
section.

A group submission (Gradescope's submitters, several users) belongs to each
of its members: each member's roster row gets it.
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from autograder.engine.results import SubmissionResult

CANVAS_ID = "canvas:"
"""Prefix of a Canvas user id among the identities: it matches the roster's
ID column only, never another student's SIS id that happens to be equal."""
CANVAS_ASSIGNMENT = re.compile(r"(?P<title>.*\S)\s*\((?P<id>\d+)\)\s*")
"""A Canvas export names each assignment's column "<title> (<assignment id>)"."""
KEY_COLUMNS = ("submission", "id", "sis user id", "sis login id", "login", "username",
               "user", "email", "e-mail", "sid", "student id")
NAME_COLUMNS = ("name", "student", "student name", "full name")


class RosterError(Exception):
    """The roster cannot be used; the message says how to fix it."""


@dataclass
class RosterStudent:
    """One row of the roster (a student of the class), not the notebook proxy engine.student.Student."""

    name: str
    keys: dict[str, str]
    """Identifier column (lower case) -> value, as written in the roster."""
    section: str = ""
    row: dict[str, str] = field(default_factory=dict)

    def matches(self, ids: set[str]) -> bool:
        mine = {v.strip().lower() for v in self.keys.values() if v.strip()}
        if self.keys.get("id", "").strip():
            mine.add(CANVAS_ID + self.keys["id"].strip())
        return bool(mine & ids)

    @property
    def label(self) -> str:
        return self.name or next((v for v in self.keys.values() if v), "?")


@dataclass
class Roster:
    students: list[RosterStudent]
    columns: list[str]
    """The header as written (a Canvas export's assignment columns among them)."""

    def assignment_column(self, assignment_id: str, title: str) -> str | None:
        """The header of this assignment's column in a Canvas export
        ("Homework 1 (123456)"), so that an import updates it instead of
        adding a new one; None when the roster has no such column."""
        for header in self.columns:
            m = CANVAS_ASSIGNMENT.fullmatch(header or "")
            if m and m.group("title").strip().lower() in (title.lower(), assignment_id.lower()):
                return header
        return None


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
    students = []
    for row in rows:
        label = (row.get(name) or "").strip() if name else ""
        if label.lower() == "points possible":  # the second row of a Canvas export
            continue
        students.append(RosterStudent(label, {k.strip().lower(): (row.get(k) or "").strip() for k in keys},
                                      (row.get(section) or "").strip() if section else "", row))
    return Roster(students, [h for h in header.values()])


def members(result: SubmissionResult) -> list[dict]:
    """The users the LMS says submitted it (several for a group); [{}] when it says nothing."""
    users = (result.metadata or {}).get("users")
    found = [u for u in users if isinstance(u, dict)] if isinstance(users, list) else []
    return found or [{}]


def identities(result: SubmissionResult, member: dict) -> set[str]:
    """Lower-case ids a roster row may use for this member of the submission."""
    ids = {result.submission.lower()}
    for k in ("email", "sid"):
        if isinstance(member.get(k), str) and member[k].strip():
            ids.add(member[k].strip().lower())
    if isinstance(member.get("email"), str) and "@" in member["email"]:
        ids.add(member["email"].split("@")[0].lower())
    if isinstance(member.get("canvas_user_id"), str):
        ids.add(CANVAS_ID + member["canvas_user_id"])
    return ids


def match(students: list[RosterStudent], results: list[SubmissionResult]
          ) -> tuple[list[tuple[RosterStudent, SubmissionResult | None]], list[SubmissionResult]]:
    """Each roster student with their submission (None when missing), and the
    submissions no roster row claims. Each member of a submission is
    claimed once: a group's submission goes to every member's row."""
    taken: set[tuple[str, int]] = set()
    pairs = []
    for s in students:
        found = [(r, i) for r in results for i, m in enumerate(members(r))
                 if (r.submission, i) not in taken and s.matches(identities(r, m))]
        # several submissions for one student: the best scored one counts
        best = max(found, key=lambda pair: pair[0].score, default=None)
        if best is not None:
            taken.add((best[0].submission, best[1]))
        pairs.append((s, best[0] if best else None))
    claimed = {submission for submission, _ in taken}
    unclaimed = [r for r in results if r.submission not in claimed]
    return pairs, unclaimed
