"""Per-submission feedback for the student: DIR/<id>/feedback.md and .html.

Written only from the SubmissionResult: each question, each test's title,
points and the message the check produced (autograder.checks messages say
what differed without the expected value). Nothing else reaches it: no test
code, no reference values, no notebook output. Tests whose visibility is
"hidden" are shown only as points, without title or message. Every text is
capped as in results.json, so a feedback file is never much larger than it.
Questions graded by hand (Context.manual, course/manual_scores.py) show the
grader's points and comment, or "not yet graded" (never a 0) until then.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autograder.engine.results import SubmissionResult, TestResult, cap
from autograder.writing import write_atomic
from autograder.report import htmlpage
from autograder.report.htmlpage import esc, fmt


@dataclass(frozen=True)
class Context:
    title: str
    """The assignment's title."""
    questions: list[str]
    max_points: dict[str, float]
    """Question id -> its maximum points."""
    manual: tuple[str, ...] = ()
    """The questions (among `questions`) graded by hand: each has one test, the
    grader's score with their comment as its output, once it is graded."""


def write(out: Path, result: SubmissionResult, ctx: Context, status: str = "") -> None:
    folder = out / result.submission
    write_atomic(folder / "feedback.md", markdown(result, ctx, status))
    write_atomic(folder / "feedback.html", html(result, ctx, status))


def _by_question(result: SubmissionResult, ctx: Context):
    for q in ctx.questions:
        tests = [t for t in result.tests if t.question == q]
        yield q, sum(t.score for t in tests), ctx.max_points[q], tests


def _headline(result: SubmissionResult, ctx: Context) -> str:
    total = sum(ctx.max_points.values())
    waiting = _not_yet_graded(result, ctx)
    return f"Score: {fmt(result.score)} / {fmt(total)}" + (
        f" ({', '.join(waiting)} not yet graded)" if waiting else "")


NOT_YET = "not yet graded"


def _not_yet_graded(result: SubmissionResult, ctx: Context) -> list[str]:
    """The manual questions without a grader's score yet."""
    graded = {t.question for t in result.tests}
    return [q for q in ctx.manual if q not in graded]


def _points(q: str, s: float, waiting: list[str]) -> str:
    return NOT_YET if q in waiting else fmt(s)


def _mark(t: TestResult) -> str:
    if t.status == "passed":
        return "passed"
    return "partial" if t.score > 0 else "failed"


def _fence(text: str) -> str:
    """A Markdown code block no text can close early (a longer fence than any run inside)."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}\n{text}\n{ticks}"


def markdown(result: SubmissionResult, ctx: Context, status: str = "") -> str:
    lines = [f"# Feedback: {ctx.title}", "", f"Submission {_code(result.submission)}  ",
             _headline(result, ctx) + "  "]
    lines += [md_text(line) + "  " for line in status.splitlines()]  # timing, late policy
    if result.notes:
        lines += ["", "## About your notebook", ""]
        lines += [_fence(cap(n)) for n in result.notes]
    waiting = _not_yet_graded(result, ctx)
    lines += ["", "| question | points | out of |", "|---|---:|---:|"]
    lines += [f"| {q} | {_points(q, s, waiting)} | {fmt(m)} |"
              for q, s, m, _ in _by_question(result, ctx)]
    for q, s, m, tests in _by_question(result, ctx):
        lines += ["", f"## {q}: {_points(q, s, waiting)} / {fmt(m)}", ""]
        for t in tests:
            lines += _markdown_manual(t) if q in ctx.manual else _markdown_test(t)
    return "\n".join(lines) + "\n"


def _markdown_manual(t: TestResult) -> list[str]:
    """A grader's score: the comment is shown whatever the points."""
    head = f"- {md_text(t.title)} ({fmt(t.score)} / {fmt(t.max_score)})"
    return [head, "", _indent(_fence(cap(t.output))), ""] if t.output else [head]


def _markdown_test(t: TestResult) -> list[str]:
    points = f"{fmt(t.score)} / {fmt(t.max_score)}"
    if t.visibility == "hidden":
        return [f"- a hidden test: {points}"]
    head = f"- **{_mark(t)}** ({points}): {md_text(t.title)}"
    if t.status == "passed" or _not_run(t):
        return [head]
    diagnosis = [line for text in t.diagnosis.splitlines() for line in ("  " + md_text(text), "")]
    return [head, "", _indent(_fence(cap(t.output))), "", *diagnosis]


def _not_run(t: TestResult) -> bool:
    """Tests of a submission that could not be graded repeat its one reason,
    shown once under "About your notebook"."""
    return t.output.startswith("not graded: ")


def _code(text: str) -> str:
    """An inline code span no text can close early (the submission id is a file name)."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    return f"{ticks} {text} {ticks}" if longest else f"`{text}`"


def md_text(text: str) -> str:
    """Text in a Markdown line, shown as written: test titles may hold * _ <,
    submission ids anything a file name can."""
    return re.sub(r"([\\`*<>\[\]|])", r"\\\1", text)


def _indent(text: str) -> str:
    return "\n".join("  " + line if line else line for line in text.splitlines())


def html(result: SubmissionResult, ctx: Context, status: str = "") -> str:
    body = [f"<h1>Feedback: {esc(ctx.title)}</h1>",
            f"<p>Submission <code>{esc(result.submission)}</code><br>"
            f"<strong>{esc(_headline(result, ctx))}</strong>"
            + "".join(f"<br>{esc(line)}" for line in status.splitlines()) + "</p>"]
    if result.notes:
        body += ["<h2>About your notebook</h2>", *(htmlpage.pre(cap(n)) for n in result.notes)]
    waiting = _not_yet_graded(result, ctx)
    body.append(htmlpage.table(["question", "points", "out of"],
                               [[q, _points(q, s, waiting), fmt(m)]
                                for q, s, m, _ in _by_question(result, ctx)],
                               numeric={1, 2}))
    for q, s, m, tests in _by_question(result, ctx):
        body.append(f"<h2>{esc(q)}: {_points(q, s, waiting)} / {fmt(m)}</h2>\n<ul>")
        body += [_html_manual(t) if q in ctx.manual else _html_test(t) for t in tests]
        body.append("</ul>")
    return htmlpage.page(f"Feedback: {ctx.title} ({result.submission})", body)


def _html_test(t: TestResult) -> str:
    points = f"{fmt(t.score)} / {fmt(t.max_score)}"
    if t.visibility == "hidden":
        return f"<li>a hidden test: {points}</li>"
    head = (f'<li><strong class="{_mark(t)}">{_mark(t)}</strong> ({points}): '
            f"{esc(t.title)}")
    if t.status == "passed" or _not_run(t):
        return head + "</li>"
    diagnosis = "".join(f"<p>{esc(text)}</p>" for text in t.diagnosis.splitlines())
    return head + htmlpage.pre(cap(t.output)) + diagnosis + "</li>"


def _html_manual(t: TestResult) -> str:
    head = f"<li>{esc(t.title)} ({fmt(t.score)} / {fmt(t.max_score)})"
    return head + (htmlpage.pre(cap(t.output)) if t.output else "") + "</li>"
