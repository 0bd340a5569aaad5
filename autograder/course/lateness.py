"""When each submission came in and whether that was after the due date.

The time comes from the LMS's metadata (created_at: Gradescope's
submission_metadata.json on Gradescope, an export's submission_metadata.yml
locally; never a file inside a submission) when there is some, else from the
entry's own modification time in the submissions folder as discovery read it
(Entry.mtime, engine/intake/submissions.py: a link is not followed; the
folder is never read again here). The due date is --due, else the one in the
metadata; without either, nothing is late; Gradescope's per-user due dates
(extensions) count before the assignment's. A Canvas download says whether
Canvas recorded the submission late (_LATE in the file's name) but not when
it came in: that mark is kept as it is, and its files' times (the time of
unzipping) are never used.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from autograder.engine.results import SubmissionResult


@dataclass(frozen=True)
class Timing:
    submitted: datetime | None
    due: datetime | None
    source: str
    """Where `submitted` came from: "gradescope", "file time", "canvas" or ""."""
    recorded_late: bool = False
    """The LMS marked the submission late without saying when it came in (Canvas)."""

    @property
    def late_seconds(self) -> float:
        if self.submitted is None or self.due is None:
            return 0.0
        return max(0.0, (self.submitted - self.due).total_seconds())

    @property
    def late(self) -> bool:
        return self.recorded_late or self.late_seconds > 0

    @property
    def late_by(self) -> str:
        """How late, as the gradebook shows it ('' when on time)."""
        if self.late_seconds:
            return duration(self.late_seconds)
        return "recorded late by Canvas" if self.recorded_late else ""


def has_offset(text: str) -> bool:
    """Whether a --due text says its zone (an offset, or a zone's name after it)."""
    try:
        return datetime.fromisoformat(text.strip()).tzinfo is not None
    except ValueError:
        return True  # '2026-03-01T23:59 America/New_York' (the policy's form), or an error


def parse_time(text: str) -> datetime:
    """ISO 8601 ('2026-03-01T23:59', '2026-03-01 23:59:00+01:00'); no zone = local time.

    Raises:
        ValueError: with a message saying which form is expected.
    """
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a date and time; write it like "
                         "2026-03-01T23:59 or 2026-03-01T23:59+01:00") from None
    return value if value.tzinfo else value.astimezone()


def timing(result: SubmissionResult, file_time: float | None, due: datetime | None) -> Timing:
    """`file_time`: the entry's Entry.mtime (seconds since the epoch), None when unknown."""
    meta = result.metadata or {}
    due = due or metadata_due(meta)
    if meta.get("lms") == "canvas":
        return Timing(None, due, "canvas", meta.get("late") is True)
    submitted = _meta_time(meta.get("created_at"))
    if submitted is not None:
        return Timing(submitted, due, "gradescope")
    if due is not None and file_time is not None:
        return Timing(datetime.fromtimestamp(file_time, timezone.utc), due, "file time")
    return Timing(None, due, "")


def metadata_due(meta: dict) -> datetime | None:
    """The due date Gradescope's metadata gives this submission: a submitter's
    own (`users[].assignment.due_date`, where an extension puts it; for a
    group, the latest of them), else the assignment's."""
    own = [_meta_time(_due_field(user)) for user in meta.get("users") or []
           if isinstance(user, dict)]
    own = [d for d in own if d is not None]
    return max(own) if own else _meta_time(_due_field(meta))


def _due_field(holder: dict):
    assignment = holder.get("assignment")
    return assignment.get("due_date") if isinstance(assignment, dict) else None


def _meta_time(value) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_time(value)
    except ValueError:
        return None


def duration(seconds: float) -> str:
    """'3 d 4 h', '2 h 5 min', '12 min', '40 s'."""
    s = int(round(seconds))
    d, h, m = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if d:
        return f"{d} d {h} h"
    if h:
        return f"{h} h {m} min"
    return f"{m} min" if m else f"{s} s"


def status_line(t: Timing) -> str:
    """The line a student's feedback shows about timing ('' when nothing is known)."""
    if t.late_seconds:
        return f"Submitted {duration(t.late_seconds)} after the due date."
    return "Canvas recorded this submission as late." if t.recorded_late else ""
