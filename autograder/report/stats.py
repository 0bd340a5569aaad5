"""Class statistics from one batch: score summary, pass rates per question
and per test, and the most common failure message of each test (numbers
blanked, so the same mistake on different inputs counts once)."""
from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass

from autograder.engine.results import SubmissionResult


@dataclass(frozen=True)
class TestStats:
    question: str
    title: str
    max_score: float
    passed: int
    graded: int
    common_failure: str
    """The most frequent failure message (numbers replaced by #), '' if none failed."""
    common_count: int

    @property
    def pass_rate(self) -> float:
        return self.passed / self.graded if self.graded else 0.0


@dataclass(frozen=True)
class QuestionStats:
    question: str
    max_score: float
    mean: float
    full_marks: int
    graded: int


def graded(results: list[SubmissionResult]) -> list[SubmissionResult]:
    """The submissions that were run (a broken upload says nothing about a test)."""
    return [r for r in results if not r.error]


def graded_of(results: list[SubmissionResult]) -> str:
    """"N graded of M entries": what every figure of the class report counts."""
    return f"{len(graded(results))} graded of {len(results)} entries"


def summary(results: list[SubmissionResult], max_total: float) -> dict[str, float]:
    """Over the graded submissions only (graded()): an entry that could not be
    graded has no score, and its 0 would pull the mean down."""
    totals = [r.score for r in graded(results)]
    if not totals:
        return {"graded": 0}
    return {"graded": len(totals), "mean": statistics.fmean(totals),
            "median": statistics.median(totals), "min": min(totals), "max": max(totals),
            "full marks": sum(t >= max_total for t in totals),
            "zero": sum(t == 0 for t in totals)}


def per_question(results: list[SubmissionResult], questions: list[str],
                 max_points: dict[str, float]) -> list[QuestionStats]:
    runs = graded(results)
    out = []
    for q in questions:
        scores = [r.question_scores(questions)[q] for r in runs]
        out.append(QuestionStats(q, max_points[q], statistics.fmean(scores) if scores else 0.0,
                                 sum(s >= max_points[q] for s in scores), len(scores)))
    return out


def per_test(results: list[SubmissionResult]) -> list[TestStats]:
    """One entry per test, in the assignment's order."""
    runs = graded(results)
    order: dict[tuple[str, str], list] = {}
    for r in runs:
        for t in r.tests:
            order.setdefault((t.question, t.title), []).append(t)
    out = []
    for (q, title), tests in order.items():
        failures = Counter(blank_numbers(t.output) for t in tests if t.status != "passed")
        common, count = failures.most_common(1)[0] if failures else ("", 0)
        out.append(TestStats(q, title, tests[0].max_score,
                             sum(t.status == "passed" for t in tests), len(tests), common, count))
    return out


def blank_numbers(text: str) -> str:
    first = text.splitlines()[0] if text else ""
    return re.sub(r"(?<![\w.])-?\d+(\.\d+)?(e[-+]?\d+)?", "#", first)[:200]
