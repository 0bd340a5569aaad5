"""The class roster: who should have submitted, and which submission is whose.

A roster is a CSV file with a header row. Any column named like an
identifier (submission, id, sis user id, sis login id, login, username,
email, sid) is matched against the submission ids, case-insensitively, and
against the e-mail and student id in Gradescope's metadata; a Canvas
gradebook export works as is. Optional columns: name (or student), section.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from autograder.engine.results import SubmissionResult

KEY_COLUMNS = ("submission", "id", "sis user id", "sis login id", "login", "username",
               "user", "email", "e-mail", "sid", "student id")
NAME_COLUMNS = ("name", "student", "student name", "full name")


class RosterError(Exception):
    """The roster cannot be used; the message says how to fix it."""


@dataclass
class Student:
    name: str
    keys: dict[str, str]
    """Identifier column (lower case) -> value, as written in the roster."""
    section: str = ""
    row: dict[str, str] = field(default_factory=dict)

    def matches(self, ids: set[str]) -> bool:
        return any(v.strip().lower() in ids for v in self.keys.values() if v.strip())

    @property
    def label(self) -> str:
        return self.name or next((v for v in self.keys.values() if v), "?")


def read(path: Path) -> list[Student]:
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
        students.append(Student(label, {k.strip().lower(): (row.get(k) or "").strip() for k in keys},
                                (row.get(section) or "").strip() if section else "", row))
    return students


def identities(result: SubmissionResult) -> set[str]:
    """Lower-case ids a roster row may use for this submission."""
    ids = {result.submission.lower()}
    users = (result.metadata or {}).get("users")
    for user in users if isinstance(users, list) else []:
        if isinstance(user, dict):
            for k in ("email", "sid"):
                if isinstance(user.get(k), str) and user[k].strip():
                    ids.add(user[k].strip().lower())
            if isinstance(user.get("email"), str) and "@" in user["email"]:
                ids.add(user["email"].split("@")[0].lower())
    return ids


def match(students: list[Student], results: list[SubmissionResult]
          ) -> tuple[list[tuple[Student, SubmissionResult | None]], list[SubmissionResult]]:
    """Each roster student with their submission (None when missing), and the
    submissions no roster row claims."""
    claimed: set[str] = set()
    pairs = []
    for s in students:
        found = [r for r in results if r.submission not in claimed and s.matches(identities(r))]
        # several submissions for one student: the best scored one counts
        best = max(found, key=lambda r: r.score, default=None)
        if best is not None:
            claimed.add(best.submission)
        pairs.append((s, best))
    unclaimed = [r for r in results if r.submission not in claimed]
    return pairs, unclaimed
