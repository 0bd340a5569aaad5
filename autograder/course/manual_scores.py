"""Merging a grader's rubric scores into what `grade` writes for people.

`prepare` reads and checks the rubric-scores file (course/rubric.py) against
the assignment's manual questions and the codes DIR's export issued, before
any grading time is spent. `Merge` then adjusts what the report stage writes:

* each result, given one test per manual question graded (its points, the
  grader's comment as its output), for the feedback and the gradebooks;
* the feedback's context: the manual questions after the autograded ones;
* the gradebook rows: a row whose manual questions are not all graded is
  "not yet graded" (`pending`), and canvas.csv leaves its score blank until
  every score is in, never a 0 for a score nobody gave;
* the total possible: the autograded points and the manual ones.

grades.csv and results.json stay the autograder's own: they are written
before the report stage, and grades.csv's columns are the autograded
questions only. Without a rubric-scores file (given None) every method returns
what it is given, so the reports are as they were.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from autograder.engine import config as config_mod
from autograder.engine.results import SubmissionResult, TestResult
from autograder.course import manual_codes, rubric
from autograder.course.rubric import RubricError, Score

MANUAL_TEST = "graded by hand"
"""The name and title of a manual question's one test."""


@dataclass(frozen=True)
class Given:
    """A rubric-scores file, read and checked."""
    path: Path
    scores: dict[tuple[str, str], Score]


def prepare(path: Path, assignment: str, out: Path) -> Given:
    """The checked file; RubricError (a ValueError) saying what to fix."""
    manual = config_mod.load(assignment).manual
    if not manual:
        raise RubricError(f"--manual-scores: {assignment} has no manual questions (declare "
                          f"them in grading_config/{assignment}.toml as [manual.<question>] "
                          "with points = N)")
    codes = set(manual_codes.read_key(out))
    if not codes:
        raise RubricError(f"--manual-scores: {out} holds no export for grading by hand yet "
                          f"({out / manual_codes.KEY} is missing): grade once without "
                          "--manual-scores, fill the rubric scores of that export, then grade "
                          "into the same folder with them")
    return Given(path, rubric.read(path, {q: m.points for q, m in manual.items()}, codes))


class Merge:
    """The rubric scores of `given` as the reports of `batch` use them."""

    def __init__(self, batch, given: Given | None):
        a = batch.assignment
        self.manual = dict(a.config.manual) if given is not None else {}
        self.max_total = a.max_total + sum(m.points for m in self.manual.values())
        self.lines: list[str] = []
        self._marks: dict[str, dict[str, Score | None]] = {}
        if self.manual:
            ids = [r.submission for r in batch.results]
            codes = manual_codes.issue(batch.out, a.id, ids)
            self._marks = {sid: {q: _given(given.scores.get((codes[sid], q)))
                                 for q in self.manual} for sid in ids}
            self.lines = self._summary(given, codes)
        elif a.config.manual and batch.results:
            points = sum(m.points for m in a.config.manual.values())
            self.lines = [f"  gradebook.csv and canvas.csv hold the autograded points only; "
                          f"merge the {points:g} points graded by hand with grade ... --out "
                          f"{batch.out} --manual-scores FILE"]

    def result(self, result: SubmissionResult) -> SubmissionResult:
        """`result` with a test for each manual question graded (a copy)."""
        marks = self._marks.get(result.submission)
        if marks is None:
            return result
        tests = [TestResult(q, MANUAL_TEST, MANUAL_TEST, mark.points, self.manual[q].points,
                            mark.comment, "visible") for q, mark in marks.items() if mark]
        return dataclasses.replace(result, tests=[*result.tests, *tests])

    def context(self, ctx):
        """The feedback's context (report/feedback.py) with the manual questions."""
        if not self.manual:
            return ctx
        return dataclasses.replace(
            ctx, questions=[*ctx.questions, *self.manual],
            max_points={**ctx.max_points, **{q: m.points for q, m in self.manual.items()}},
            manual=tuple(self.manual))

    def rows(self, rows: list) -> list:
        """The gradebook rows (report/gradebook.py) with the merged results and
        the manual questions each still waits for."""
        if not self.manual:
            return rows
        return [row if row.result is None else dataclasses.replace(
            row, result=self.result(row.result), pending=self.pending(row.result.submission))
            for row in rows]

    def pending(self, submission: str) -> tuple[str, ...]:
        return tuple(q for q, mark in self._marks.get(submission, {}).items() if mark is None)

    def _summary(self, given: Given, codes: dict[str, str]) -> list[str]:
        expected = len(self._marks) * len(self.manual)
        waiting = sorted((codes[sid], q) for sid in self._marks for q in self.pending(sid))
        ours = set(codes.values())
        elsewhere = sum(1 for code, _ in given.scores if code not in ours)
        lines = [f"manual scores: {expected - len(waiting)} of {expected} merged from "
                 f"{given.path} into gradebook.csv, canvas.csv and the feedback (grades.csv "
                 "stays the autograded part)"]
        if waiting:
            shown = ", ".join(f"{c} {q}" for c, q in waiting[:6])
            students = len({c for c, _ in waiting})
            lines.append(f"warning: manual scores not yet graded: {len(waiting)} ({shown}"
                         f"{' ...' if len(waiting) > 6 else ''}); gradebook.csv says 'not yet "
                         f"graded' and canvas.csv leaves the score blank for those submissions "
                         f"({students}) until every manual score is in")
        if elsewhere:
            lines.append(f"manual scores: rows for submissions not graded in this run, left "
                         f"out: {elsewhere}")
        return lines


def _given(score: Score | None) -> Score | None:
    """The score, or None when it is missing or blank (not yet graded)."""
    return score if score is not None and score.points is not None else None
