"""DIR/report.html: one page per assignment for the instructor.

Score distribution, per-question and per-test pass rates with each test's
most common failure, the known mistakes the feedback named (the class's
misconceptions, with the section to reteach), runtime per submission,
the submissions that hit limits or errors, and those that are another
assignment's notebook. Plots are embedded PNGs, so
the page is one file that can be mailed or archived.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.writing import write_atomic
from autograder.report import misconceptions, plots, problems, stats
from autograder.report.htmlpage import esc, fmt, page, table

if TYPE_CHECKING:  # annotations only: importing the engine's batch starts torch
    from autograder.engine.batch import Batch

log = logging.getLogger(__name__)


def write(path: Path, batch: Batch, sections: list[str] = ()) -> None:
    write_atomic(path, render(batch, sections))


def render(batch: Batch, sections: list[str] = ()) -> str:
    """The page; `sections`: HTML of the assignment's own reports (an exam's
    difficulty per variant, hooks.BatchReports.class_report_section)."""
    a = batch.assignment
    max_points = {q: a.config.max_points(q) for q in a.questions}
    results = sorted(batch.results, key=lambda r: r.submission)
    qs = stats.per_question(results, a.questions, max_points)
    ts = stats.per_test(results)
    body = [f"<h1>{esc(a.config.title)}</h1>",
            f'<p class="muted">Class report of <code>{esc(a.id)}</code>: '
            f"{stats.graded_of(results)}{_ungraded(results)}, in {batch.seconds:.1f} s.</p>"]
    body += _scores(results, a.max_total)
    body += _questions(qs, results)
    body += _misconceptions(misconceptions.ranked(results, a.diagnoses, a.questions))
    body += sections
    body += _tests(ts)
    body += _runtimes(results, a.config.limits.notebook_seconds)
    body += _problems(problems.of_batch(results))
    body += _other_assignments(results, a.id)
    body += _handed_out(results)
    return page(f"{a.config.title}: class report", body, script=True)


def _img(draw, alt: str, *args) -> str:
    """A plot drawn by `draw(*args)`; one that fails costs that plot only."""
    try:
        uri = draw(*args)
    except Exception:  # a bug of ours, or a label matplotlib refused
        log.exception("plot %r failed", alt)
        return f'<p class="broken">This plot could not be drawn: {esc(alt)}.</p>'
    return f'<p><img class="plot" src="{uri}" alt="{esc(alt)}"></p>'


def _ungraded(results) -> str:
    n = len(results) - len(stats.graded(results))
    return f" ({n} not graded: under Limits and errors; no figure counts them)" if n else ""


def _scores(results, max_total: float) -> list[str]:
    s = stats.summary(results, max_total)
    if not s["graded"]:
        return ["<h2>Scores</h2>", "<p>No submissions were graded.</p>"]
    rows = [[k, fmt(round(v, 2))] for k, v in s.items() if k != "graded"]
    return ["<h2>Scores</h2>", f"<p>{stats.graded_of(results)}.</p>",
            table(["", "value"], rows, numeric={1}),
            _img(plots.histogram, "score distribution",
                 [r.score for r in stats.graded(results)], max_total)]


def _questions(qs, results) -> list[str]:
    rows = [[q.question, fmt(q.max_score), fmt(round(q.mean, 2)),
             f"{q.full_marks} of {q.graded}"] for q in qs]
    return ["<h2>Questions</h2>", f"<p>{stats.graded_of(results)}.</p>",
            table(["question", "points", "mean", "full marks"], rows, numeric={1, 2, 3}),
            _img(plots.question_rates, "per-question scores", qs)]


def _misconceptions(named) -> list[str]:
    """The diagnoses the feedback named, per question, most students first (none:
    no section, as for an assignment without diagnoses)."""
    if not named:
        return []
    rows = [[esc(n.question), esc(n.explanation), esc(n.section),
             f"{n.students} of {n.graded}"] for n in named]
    return ["<h2>Misconceptions to reteach</h2>",
            "<p>How many students' feedback named each known mistake (a failing test whose "
            "answers are that mistake's), per question, most named first.</p>",
            table(["question", "misconception", "section to reteach", "students"], rows,
                  numeric={3}, raw=True)]


def _tests(ts) -> list[str]:
    ranked = sorted(ts, key=lambda t: (t.pass_rate, t.question))
    rows = [[esc(t.question), esc(t.title), fmt(t.max_score), f"{t.passed} of {t.graded}",
             f"{esc(t.common_failure)} <span class=\"muted\">({t.common_count}&times;)</span>"
             if t.common_failure else ""] for t in ranked]
    return ["<h2>Tests, most failed first</h2>",
            "<p>The most common failure message of each test (numbers shown as #) "
            "points at the mistake most of the class made.</p>",
            _img(plots.test_pass_rates, "per-test pass rates", ts),
            table(["question", "test", "points", "passed", "most common failure"], rows,
                  numeric={2, 3}, raw=True)]


def _runtimes(results, limit: float) -> list[str]:
    items = [(r.submission, r.seconds) for r in results]
    slowest = sorted(items, key=lambda kv: -kv[1])[:10]
    return ["<h2>Runtime</h2>", _img(plots.runtimes, "runtime per submission", items, limit),
            table(["submission (slowest first)", "seconds"],
                  [[n, f"{s:.2f}"] for n, s in slowest], numeric={1})]


def _other_assignments(results, assignment_id: str) -> list[str]:
    """Submissions that are another assignment's notebook (engine.intake.foreign)."""
    found = [(r.submission, r.annotations["other_assignment"]) for r in results
             if r.annotations.get("other_assignment")]
    if not found:
        return []
    return ["<h2>Notebooks of another assignment</h2>",
            f"<p>{len(found)} submissions look like the notebook of another assignment "
            f"and were graded as <code>{esc(assignment_id)}</code>; their students were told.</p>",
            table(["submission", "looks like"], [list(pair) for pair in found])]


def _handed_out(results) -> list[str]:
    """Submissions that are the notebook as handed out (engine.intake.handout)."""
    found = sorted(r.submission for r in results if r.annotations.get("handed_out"))
    if not found:
        return []
    return ["<h2>Notebooks as handed out</h2>",
            f"<p>{len(found)} submissions are the notebook as handed out, with no answers: "
            "did these students upload the right file? Each was told so in its feedback.</p>",
            table(["submission"], [[s] for s in found])]


def _problems(found) -> list[str]:
    if not found:
        return ["<h2>Limits and errors</h2>", "<p>No submission hit a limit or an error.</p>"]
    regrade = sorted({p.submission for p in found if p.kind == "needs regrade"})
    warning = [f"<p class=\"failed\">{len(regrade)} submissions need a regrade: hidden tests "
               "raised on the grader's side, so their points are withheld (below). Fix the "
               "tests, then grade again.</p>"] if regrade else []
    return ["<h2>Limits and errors</h2>", *warning,
            f"<p>{len({p.submission for p in found})} submissions hit a limit or an error.</p>",
            table(["submission", "kind", "detail"], [[p.submission, p.kind, p.detail]
                                                     for p in found])]
