"""DIR/feedback_for_canvas.zip: each student's feedback.html, named for Canvas's
"Re-Upload Submissions" (the assignment's page in Canvas, "Re-Upload
Submissions"), which attaches each file as a comment to a submission.

Canvas reads who a re-uploaded file is for from its name, as in its own
download (engine/intake/canvas_download.py): the first two numbers between
underscores are the user id and the id of the submitted file, which must be
that submission's. So each file is named with the prefix the entry's file had
in the download, exactly as Canvas wrote it (name, _LATE, user id, file id),
then "feedback.html": "hoppergrace_LATE_1002_50003_feedback.html". An anonymous
assignment's entries keep their "anon_<id>" prefix likewise.

Written only for a Canvas download, only for entries that were graded (not an
entry that could not be, nor one waiting for a regrade); the zip's bytes
depend on its contents only (writing.zip_entry).

What must stay true: no page replaces another. Canvas writes the prefix, so
two entries can have the same one (or one differing only in case, which
unzips onto the same file where case is ignored): each later one (by
submission id) is renamed after its prefix ("..._50007_feedback_2.html", which
Canvas still attaches to that submission) and the instructor is told which.
"""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from autograder.engine.results import SubmissionResult
from autograder.writing import atomic_writer, zip_entry

NAME = "feedback_for_canvas.zip"
FEEDBACK = "feedback.html"
PREFIX = re.compile(r"\w+_[0-9]{1,19}_")
"""A Canvas prefix: word characters (no separator, no dot) ending in the file id."""
MAX_FEEDBACK_BYTES = 2_000_000
SHOWN = 10


def prefix(result: SubmissionResult) -> str | None:
    """The entry's name prefix in the Canvas download, or None if it is not one's."""
    meta = result.metadata or {}
    if meta.get("lms") != "canvas":
        return None
    text = meta.get("canvas_prefix")
    if not isinstance(text, str) or not text:  # an older result: rebuilt from its fields
        users = meta.get("users") or [{}]
        user = users[0] if isinstance(users[0], dict) else {}
        sub = meta.get("canvas_submission_id")
        late = "_LATE" if meta.get("late") is True else ""
        text = f"{user.get('name')}{late}_{user.get('canvas_user_id')}_{sub}_" \
            if user.get("canvas_user_id") else ""
    return text if PREFIX.fullmatch(text) else None


def write(out: Path, results: list[SubmissionResult]) -> list[str]:
    """The zip (removed when no entry is a Canvas download's) and the lines to print."""
    path = out / NAME
    canvas = sorted((r for r in results if prefix(r) is not None), key=lambda r: r.submission)
    if not canvas:
        path.unlink(missing_ok=True)  # never leave a zip that belongs to another run
        return []
    files, left, renamed = {}, [], []
    for r in canvas:
        page = out / r.submission / FEEDBACK
        if r.error or r.needs_regrade or not page.is_file():
            left.append(r.submission)
            continue
        name = _free_name(prefix(r), files)
        if name != prefix(r) + FEEDBACK:
            renamed.append(r.submission)
        with open(page, "rb") as f:
            files[name] = f.read(MAX_FEEDBACK_BYTES)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name in sorted(files):
            zf.writestr(zip_entry(name), files[name])
    with atomic_writer(path) as f:
        f.write(buffer.getvalue())
    lines = [f"feedback for Canvas: {path} ({len(files)} files; in Canvas, the assignment's "
             "Re-Upload Submissions attaches each to its student's submission)"]
    if left:
        lines.append(f"feedback for Canvas: {len(left)} entries not graded or waiting for a "
                     "regrade are not in it: " + ", ".join(left[:SHOWN])
                     + (" ..." if len(left) > SHOWN else ""))
    if renamed:
        lines.append(f"feedback for Canvas: {len(renamed)} entries have the Canvas prefix of "
                     "another entry (the same, or in another case), so their pages are "
                     "renamed <prefix>feedback_2.html and so on rather than replace it: "
                     + ", ".join(renamed[:SHOWN]) + (" ..." if len(renamed) > SHOWN else "")
                     + "; check that one submission was not downloaded twice")
    return lines


def _free_name(start: str, files: dict) -> str:
    """start + "feedback.html", or, when a name in `files` is the same ignoring
    case, the first of start + "feedback_2.html", "_3" ... that none is."""
    taken = {n.casefold() for n in files}
    name, n = start + FEEDBACK, 1
    while name.casefold() in taken:
        n += 1
        name = f"{start}{Path(FEEDBACK).stem}_{n}{Path(FEEDBACK).suffix}"
    return name
