"""The grade command's inputs as one typed object: the CLI builds it from its
arguments and `grade.main` takes it whole, so that a new option is declared
here once instead of being handed on by name through every layer.

Plain data, no checks: `grade.bad_options` says what is wrong with it, and
each input is read where it is used (the course files in report/run.prepare).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, kw_only=True)
class GradeOptions:
    """What `python -m autograder grade` was asked, with the command's defaults."""

    submissions: Path
    """The folder (or zip, or LMS download) of submissions."""
    assignment: str
    out: Path
    """DIR: results.json per submission, grades.csv, the reports."""
    jobs: int | None = None
    """Submissions graded in parallel (None: one per core)."""
    quiet: bool = False
    limits: tuple[str, ...] = ()
    """--limit NAME=VALUE overrides of the grading config's limits, as given."""
    scheduler: str | None = None
    """A Dask scheduler's address: grade on that cluster instead of locally."""
    resume: bool = False
    allow_unsafe: bool = False
    """--unsafe-no-sandbox: grade even where no sandbox works."""
    roster: Path | None = None
    due: str | None = None
    """--due as given (read in the policy's time zone when it names one)."""
    policy: Path | None = None
    """The course policy file (course/penalties.py)."""
    canvas_column: str | None = None
    groups: Path | None = None
    excused: Path | None = None
    manual_scores: Path | None = None
    """A rubric-scores file to merge (course/manual_scores.py)."""
    anonymous: bool = True
    """Whether the export for grading by hand hides who each code is."""
