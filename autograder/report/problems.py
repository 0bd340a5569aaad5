"""Which submissions hit a limit or an error, in words an instructor can act on.

Read from what the engine recorded: result.error (not graded at all), the
notes (cells stopped or crashed, cells that raised), test outputs that say a
call timed out or the worker was gone, and tests that raised on the grader's
side (their points withheld: the submission needs a regrade).
"""
from __future__ import annotations

from dataclasses import dataclass

from autograder.engine.results import SubmissionResult


@dataclass(frozen=True)
class Problem:
    submission: str
    kind: str
    """One of KINDS."""
    detail: str


KINDS = ("not graded", "needs regrade", "time limit", "memory limit", "crashed", "cell error",
         "other")


def of_result(r: SubmissionResult) -> list[Problem]:
    if r.error:
        return [Problem(r.submission, "not graded", r.error)]
    found = [Problem(r.submission, _kind_of_note(n), n) for n in r.notes]
    found += [Problem(r.submission, t.stopped, f"{t.question}: {t.output}")
              for t in r.tests if t.stopped]
    found += [Problem(r.submission, "needs regrade",
                      f"{t.question}::{t.name} raised {t.grader_detail or t.grader_error} on "
                      "the grader's side: fix the test (audit shows such tests), then grade "
                      "again")
              for t in r.needs_regrade]
    return found


def of_batch(results: list[SubmissionResult]) -> list[Problem]:
    return [p for r in sorted(results, key=lambda r: r.submission) for p in of_result(r)]


def _kind_of_note(note: str) -> str:
    if "was stopped" in note or "time" in note and "limit" in note:
        return "time limit"
    if "MemoryError" in note:
        return "memory limit"
    if "ended the notebook's process" in note or "could not be (re)started" in note:
        return "crashed"
    if note.startswith(("cell ", "code cell")) and " raised " in note:
        return "cell error"
    return "other"
