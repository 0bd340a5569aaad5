"""Results of grading: the data, results.json (Gradescope schema) and grades.csv.

Files are written atomically (autograder/writing.py), so a reader never sees
half a file and a crash never leaves one.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from autograder.writing import csv_text, write_atomic

OUTPUT_CAP = 16_000  # characters per student-visible text (well under Gradescope's limits)
MAX_NOTES = 50
"""Notes kept per submission (a notebook of a thousand failing cells gets
fifty, the last saying that more were left out)."""
GRADING_OUTPUTS = ("grades.csv",)
"""The files grading writes at the top of DIR, beside one folder per
submission. The report stage's are declared by its reports (report/run.py)
and reach discovery from the driver (engine.intake.submissions.discover's
`reserved`): the engine never imports the reports to learn them."""


@dataclass
class TestResult:
    question: str
    name: str
    title: str
    score: float
    max_score: float
    output: str
    visibility: str
    seconds: float = 0.0
    stopped: str = ""
    """Why the student's process went down during this test: "time limit",
    "crashed", or "" when it did not."""
    grader_error: str = ""
    """The test raised on its own side (a bug of the test, not of the answer): the
    exception's type; its points are withheld, not lost, until a regrade."""
    grader_detail: str = ""
    """For the author, never the student: that exception, and the line of the test's
    own file it came from."""
    diagnosis: str = ""
    """Where the failing test's answers are those of one known mistake
    (engine/diagnoses/): what it is and the section to reread. Shown
    after the output (feedback, results.json), never part of it or of a score."""
    profile: dict = field(default_factory=dict)
    """Where the test's time went (engine/driving/meter.py: wall and CPU times, requests,
    callbacks): for `bench --profile`, never shown to the student."""

    @property
    def status(self) -> str:
        return "passed" if self.score >= self.max_score else "failed"


@dataclass
class SubmissionResult:
    submission: str
    assignment: str
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Messages about the whole submission (unreadable notebook, cell errors, limits)."""
    notebook_output: str = ""
    seconds: float = 0.0
    error: str | None = None
    """Set when the submission could not be graded at all (it scores 0)."""
    metadata: dict = field(default_factory=dict)
    """What the platform knows about the submission (Gradescope's submission_metadata.json)."""
    annotations: dict = field(default_factory=dict)
    """What hidden tests record for reports, never shown to the student
    (an exam's identity check and variant per question)."""
    submitter: str = ""
    """Who submitted when the id had to be made unique (the entry's own name);
    "" when the id is that name. An exam's identity is read from it."""
    profile: dict = field(default_factory=dict)
    """Seconds to start each worker ("starts") and what each code cell took
    ("cells": [index, engine/driving/meter.py's figures] pairs): for `bench --profile`,
    never shown to the student."""
    cells: list[dict] = field(default_factory=list)
    """The notebook's cells as grading read them, for the reports: kind and
    cleaned text only, bounded (engine/intake/kept_cells.py); never shown to the
    student; [] when the notebook could not be read."""

    @property
    def score(self) -> float:
        return round(sum(t.score for t in self.tests), 6)

    @property
    def needs_regrade(self) -> list[TestResult]:
        """The tests whose points are withheld: they failed on the grader's side."""
        return [t for t in self.tests if t.grader_error]

    def note(self, text: str) -> None:
        """Keep a note once, up to MAX_NOTES notes in all."""
        if text in self.notes or len(self.notes) >= MAX_NOTES:
            return
        self.notes.append(text if len(self.notes) < MAX_NOTES - 1
                          else "further notes about this notebook were left out")

    def question_scores(self, questions: list[str]) -> dict[str, float]:
        scores = {q: 0.0 for q in questions}
        for t in self.tests:
            scores[t.question] = round(scores.get(t.question, 0.0) + t.score, 6)
        return scores


def cap(text: str, limit: int = OUTPUT_CAP) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n[... {len(text) - limit} characters cut]"


GRADESCOPE_TEXT = {"output_format": "text", "test_output_format": "text",
                   "test_name_format": "text"}
"""Every text in results.json is plain text: without these keys Gradescope reads
the top-level output as sanitised HTML (its `simple_format`), where a note
about `<cell 11>` would vanish."""
TEST_TEXT = {"name_format": "text", "output_format": "text"}


NEEDS_REGRADE = ("Needs regrade: {n} test(s) could not run because of a problem in the grader, "
                 "not in your answer; their points are withheld until your instructor fixes "
                 "the test and grades again.")


def to_gradescope(result: SubmissionResult, shown: str = "after_published") -> dict:
    """results.json's content; `shown` is its top-level visibility (the grading
    config's [gradescope] results): when students see the notes and the total."""
    withheld = result.needs_regrade
    summary = "\n".join(([NEEDS_REGRADE.format(n=len(withheld))] if withheld else [])
                        + result.notes)
    return {
        "score": result.score,
        "output": cap(summary),
        **GRADESCOPE_TEXT,
        "visibility": shown,
        "stdout_visibility": "hidden",
        "execution_time": round(result.seconds, 3),
        "tests": [{
            "name": f"{t.question}: {t.title}",
            "number": t.question,
            "score": round(t.score, 6),
            "max_score": t.max_score,
            "status": t.status,
            "visibility": t.visibility,
            "output": cap(t.output) + (f"\n\n{t.diagnosis}" if t.diagnosis else ""),
            **TEST_TEXT,
        } for t in result.tests],
    }


def gradescope_error(name: str, message: str, max_score: float) -> dict:
    """results.json of a submission that could not be graded: a zero score and
    one visible test, `name`, worth the assignment's total, explaining why."""
    return {
        "score": 0.0,
        "output": message,
        **GRADESCOPE_TEXT,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [{"name": name, "score": 0.0, "max_score": max_score, "status": "failed",
                   "visibility": "visible", "output": message, **TEST_TEXT}],
    }


def write_results_json(path: Path, result: SubmissionResult,
                       shown: str = "after_published") -> None:
    write_atomic(path, json.dumps(to_gradescope(result, shown), indent=2) + "\n")


def grades_csv(results: list[SubmissionResult], questions: list[str], max_total: float) -> str:
    rows = [["submission", "total", "max_total", *questions]]
    for r in sorted(results, key=lambda r: r.submission):
        scores = r.question_scores(questions)
        rows.append([r.submission, _num(r.score), _num(max_total),
                     *(_num(scores[q]) for q in questions)])
    return csv_text(rows)


def _num(x: float) -> str:
    return repr(float(x))


def to_plain(result: SubmissionResult) -> dict:
    """Every field as plain data (str, float, list, dict): how a result travels
    from a grading host and is kept for a resumed run, never as a pickled object."""
    return dataclasses.asdict(result)


def from_plain(data: dict) -> SubmissionResult:
    """The inverse of to_plain; ValueError or TypeError when `data` is not one
    (not a dict, tests that are not dicts, missing or unknown fields)."""
    tests = data.get("tests") if isinstance(data, dict) else None
    if not isinstance(tests, list) or not all(isinstance(t, dict) for t in tests):
        raise ValueError("not a plain submission result")
    return SubmissionResult(**{**data, "tests": [TestResult(**t) for t in tests]})
