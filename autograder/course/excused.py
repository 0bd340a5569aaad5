"""--excused FILE: the students canvas.csv marks excused (EX) instead of a score.

One identifier a line, each matched exactly (case and surrounding spaces aside)
against every identifier of a canvas.csv row: the roster's (Canvas user id,
SIS User ID, SIS Login ID ...) or, without a roster, the submitter's, and the
submission id. Blank lines and lines starting with # are skipped. An
identifier that names no row is said, never dropped silently. Only canvas.csv
reads it (report/gradebook.canvas_csv): the grading and grades.csv are as
without it.
"""
from __future__ import annotations

from pathlib import Path

MAX_BYTES = 4_000_000


def read(path: Path) -> frozenset[str]:
    """The case-folded identifiers of `path`; ValueError with a message for the user."""
    if not path.is_file():
        raise ValueError(f"--excused {path} does not exist; give a text file with one student "
                         "identifier a line (Canvas user id, SIS id, login or submission id)")
    with open(path, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise ValueError(f"--excused {path} is larger than {MAX_BYTES} bytes: one identifier a line")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"--excused {path} is not UTF-8 text") from None
    return frozenset(line.strip().casefold() for line in text.splitlines()
                     if line.strip() and not line.strip().startswith("#"))
