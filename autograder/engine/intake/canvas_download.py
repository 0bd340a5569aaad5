"""Who submitted what, in a Canvas "Download Submissions" archive (unzipped).

Canvas names every file it puts in the archive

    <name>[_LATE]_<user id>_<submission id>_<original name>

where <name> is the student's sortable name, lower-cased, without spaces or
punctuation ("lovelaceada"), `_LATE` marks a submission Canvas recorded as
late, and <original name> is the file as the student uploaded it, with -1,
-2 ... before its extension when Canvas renamed a resubmitted file of the
same name ("hw1_attention-2.ipynb").

What must stay true: only the prefix Canvas wrote is read (the student
chooses the original name, so nothing after the submission id is
trusted for who or when); one student gives one entry, whose id
`<name>_<user id>` does not change when they resubmit; when a student has
several files, the latest gradable one is graded and the entry says which
files were left out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autograder.engine.intake import untrusted

CANVAS_NAME = re.compile(r"(?P<name>[^_\W]+)(?P<late>_LATE)?_(?P<user>[0-9]{1,19})_"
                         r"(?P<submission>[0-9]{1,19})_(?P<original>.+)", re.DOTALL)
"""Read to the end of the name: the original name is the student's and may hold
any character, a newline included (without DOTALL a trailing newline left the
file unclaimed and its LATE mark lost); ids are ASCII digits only."""
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

    @property
    def entry_id(self) -> str:
        return f"{self.name}_{self.user_id}"

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
        return {"lms": "canvas", "users": [{"name": self.name, "canvas_user_id": self.user_id}],
                "canvas_submission_id": self.submission_id, "late": self.late,
                "original_name": self.original}


def parse(path: Path) -> CanvasFile | None:
    """The Canvas fields of a file's name, or None if Canvas did not name it."""
    m = CANVAS_NAME.fullmatch(path.name)
    if m is None or m.group("name").isdigit():
        return None
    return CanvasFile(path, m.group("name").lower(), m.group("user").lstrip("0") or "0",
                      m.group("submission"), untrusted.name(m.group("original")),
                      bool(m.group("late")))


def latest_per_student(files: list[CanvasFile]) -> list[tuple[CanvasFile, list[str]]]:
    """One file per student (Canvas user id): the latest gradable one, else
    the latest; with notes naming the files that are not graded."""
    by_user: dict[str, list[CanvasFile]] = {}
    for f in files:
        by_user.setdefault(f.user_id, []).append(f)
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
