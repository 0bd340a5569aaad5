"""Who submitted what, in a Canvas "Download Submissions" archive (unzipped).

Canvas names every file it puts in the archive

    <name>[_LATE]_<user id>_<submission id>_<original name>

where <name> is the student's sortable name, lower-cased, without spaces or
punctuation ("lovelaceada"; for a group assignment the group's name, with the
user id of the member whose submission it is), `_LATE` marks a submission
Canvas recorded as late, <submission id> is the id of the uploaded file
(Canvas's attachment id), and <original name> is the file as the student
uploaded it, with -1, -2 ... before its extension when Canvas renamed a
resubmitted file of the same name ("hw1_attention-2.ipynb"). An anonymous
assignment's download names no one:

    [LATE_]anon_<anonymous id>_<submission id>_<original name>

so its entries are graded as "anon_<anonymous id>", with no Canvas user id.

What must stay true: only the prefix Canvas wrote is read (the student
chooses the original name, so nothing after the submission id is
trusted for who or when); one student gives one entry, whose id
`<name>_<user id>` does not change when they resubmit; when a student has
several files, the latest gradable one is graded and the entry says which
files were left out; the prefix is kept as Canvas wrote it, so that a file
named with it goes back to the same submission (report/canvas_feedback.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autograder.engine.intake import untrusted

CANVAS_NAME = re.compile(r"(?P<name>[^_\W]+(?:_[^_\W]+)*?)(?P<late>_LATE)?_(?P<user>[0-9]{1,19})_"
                         r"(?P<submission>[0-9]{1,19})_(?P<original>.+)", re.DOTALL)
"""Read to the end of the name: the original name is the student's and may hold
any character, a newline included (without DOTALL a trailing newline left the
file unclaimed and its LATE mark lost); ids are ASCII digits only. A group's
name may hold underscores ("team_a"): the shortest name before the ids is read,
as Canvas itself reads the first two numbers when files are uploaded back."""
ANONYMOUS_NAME = re.compile(r"(?P<late>LATE_)?anon_(?P<anon>[A-Za-z0-9]{1,40})_"
                            r"(?P<submission>[0-9]{1,19})_(?P<original>.+)", re.DOTALL)
"""An anonymous assignment's file. "anon_12345_..." also reads as a student
named "anon": it is anonymous only when some file of the download is surely so
(an id with a letter, or LATE first, which Canvas never writes in upper case
before a student's name)."""
RESUBMISSION = re.compile(r"-(?P<n>\d{1,6})(?:\.[^.]*)?$")
GRADABLE = (".ipynb", ".zip")
SEVERAL_FILES = "files of this student in the Canvas download"


@dataclass(frozen=True)
class CanvasFile:
    """One file of the archive, as Canvas named it."""
    path: Path
    name: str
    """The student's name as Canvas wrote it ("lovelaceada")."""
    user_id: str
    submission_id: str
    original: str
    """The name the student gave the file (cleaned)."""
    late: bool
    anonymous_id: str = ""
    """An anonymous assignment's id for the student ("" when Canvas names them)."""
    prefix: str = ""
    """The file's name before <original name>, exactly as Canvas wrote it."""

    @property
    def entry_id(self) -> str:
        return f"anon_{self.anonymous_id}" if self.anonymous_id else f"{self.name}_{self.user_id}"

    @property
    def student(self) -> str:
        """Who this file is of: the Canvas user id, else the anonymous id."""
        return self.user_id or "anon_" + self.anonymous_id

    @property
    def order(self) -> tuple:
        """Later submissions sort last: Canvas's ids grow with time, and a
        renamed resubmission (-1, -2) within one submission comes after."""
        m = RESUBMISSION.search(self.original)
        return (int(self.submission_id), int(m.group("n")) if m else 0, self.original)

    @property
    def gradable(self) -> bool:
        return self.path.suffix.lower() in GRADABLE

    def metadata(self) -> dict:
        """In the shape of Gradescope's metadata (users[]), plus what Canvas adds."""
        user = {"canvas_anonymous_id": self.anonymous_id} if self.anonymous_id else \
            {"name": self.name, "canvas_user_id": self.user_id}
        return {"lms": "canvas", "users": [user],
                "canvas_submission_id": self.submission_id, "late": self.late,
                "original_name": self.original, "canvas_prefix": self.prefix}


def parse(path: Path, anonymous: bool = False) -> CanvasFile | None:
    """The Canvas fields of a file's name, or None if Canvas did not name it.
    `anonymous`: the download is an anonymous assignment's, so "anon_12345_..."
    is read as anonymous, not as a student named "anon"."""
    a = ANONYMOUS_NAME.fullmatch(path.name)
    if a is not None and (anonymous or a.group("late") or not a.group("anon").isdigit()):
        return CanvasFile(path, "", "", a.group("submission"),
                          untrusted.name(a.group("original")), bool(a.group("late")),
                          a.group("anon"), path.name[:a.start("original")])
    m = CANVAS_NAME.fullmatch(path.name)
    if m is None or m.group("name").isdigit():
        return None
    return CanvasFile(path, m.group("name").lower(), m.group("user").lstrip("0") or "0",
                      m.group("submission"), untrusted.name(m.group("original")),
                      bool(m.group("late")), prefix=path.name[:m.start("original")])


def latest_per_student(files: list[CanvasFile]) -> list[tuple[CanvasFile, list[str]]]:
    """One file per student (Canvas user id, or anonymous id): the latest
    gradable one, else the latest; with notes naming the files that are not
    graded."""
    if any(f.anonymous_id for f in files):  # an anonymous download: "anon_12345_" is too
        files = [parse(f.path, anonymous=True) or f for f in files]
    by_user: dict[str, list[CanvasFile]] = {}
    for f in files:
        by_user.setdefault(f.student, []).append(f)
    chosen = []
    for group in by_user.values():
        group.sort(key=lambda f: f.order)
        pick = ([f for f in group if f.gradable] or group)[-1]
        left = [f.original for f in group if f is not pick]
        kind = "notebook or zip" if pick.gradable else "file (none is a notebook)"
        notes = [f"{len(group)} {SEVERAL_FILES} "
                 f"({', '.join([*left, pick.original][:6])}); the latest {kind}, "
                 f"{pick.original}, is graded"] if left else []
        chosen.append((pick, notes))
    return sorted(chosen, key=lambda pair: pair[0].entry_id)
