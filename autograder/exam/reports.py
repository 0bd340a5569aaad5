"""An exam's reports, written by the report stage after the batch is graded
(autograder/<exam id>/reports.py, a hooks.BatchReports, declares FILES and
calls write and class_report_section with the exam's reference):

    DIR/<submission>/free_response.html   one student's free responses, with their numbers
    DIR/free_responses.html (and .pdf)    all of them, one student per printed page
    DIR/variant_difficulty.csv and .html  per question and variant: submissions, mean score
                                          (the .html: and the misconceptions named, per variant)
    DIR/identity_flags.csv                submissions whose STUDENT_ID is not the submitter

Everything is read from the graded results: the identity and variants the
hidden tests recorded, the free responses from the cells grading kept of each
notebook (no submission is read again). A submission whose sheet cannot be
made costs its own page and row, which say so, never the reports of the
others; it is listed among the identity flags, for a person to look at.
"""
from __future__ import annotations

import statistics
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.writing import csv_text, write_atomic
from autograder.exam import free_response, grading, identity, variants
from autograder import guard
from autograder.report import misconceptions
from autograder.report.htmlpage import esc, fmt, table

if TYPE_CHECKING:  # annotations only: importing the engine's batch starts torch
    from autograder.engine.batch import Batch

COMBINED, PDF = "free_responses.html", "free_responses.pdf"
DIFFICULTY_CSV, DIFFICULTY_HTML = "variant_difficulty.csv", "variant_difficulty.html"
FLAGS = "identity_flags.csv"
FILES = (COMBINED, PDF, DIFFICULTY_CSV, DIFFICULTY_HTML, FLAGS)
"""Every file `write` writes at the top of DIR (hooks.BatchReports.FILES): the
report stage declares them with its own, so no submission id takes one."""

UNREAD = "NOT CHECKED"
"""How the flag of a submission whose sheet could not be made starts."""


def write(batch: Batch, ref) -> list[str]:
    """Write every report; the lines returned are printed under the summary."""
    out: Path = batch.out
    a = batch.assignment
    settings = grading.settings(a.id)
    sheets = [_sheet_or_note(r, ref, settings)
              for r in sorted(batch.results, key=lambda r: r.submission)]
    lines = ["", f"exam {a.id}:"]
    if settings.free_response:
        lines += _write_free_responses(out, sheets, a.config.title)
    rows = difficulty(batch.results, a.questions, {q: a.config.max_points(q) for q in a.questions})
    write_atomic(out / DIFFICULTY_CSV, _csv(rows))
    named = misconception_sections(batch.results, a.diagnoses, a.questions, ref, whole=True)
    write_atomic(out / DIFFICULTY_HTML, difficulty_html(rows, ref, a.config.title, named))
    lines.append(f"  difficulty per variant: {out / DIFFICULTY_HTML} (and .csv)")
    flagged = [s for s in sheets if s.flag.startswith((identity.FLAG, UNREAD))]
    write_atomic(out / FLAGS, _flags_csv(flagged))
    lines.append(f"  identity flags: {len(flagged)} ({out / FLAGS})")
    lines += [f"    {s.submission}: {s.flag}" for s in flagged]
    return lines


def _resolution(result, settings) -> identity.Resolution:
    record = result.annotations.get("exam", {})
    if "identity" in record:
        return identity.Resolution.from_plain(record["identity"])
    return identity.resolve(result.submission, result.metadata, None, settings.identity_fields)


def _sheet_or_note(result, ref, settings) -> free_response.Sheet:
    """The submission's sheet, or one saying it could not be made (and why)."""
    sheet, error = guard.attempt(f"the exam sheet of {result.submission}", _sheet,
                                 result, ref, settings)
    if sheet is not None:
        return sheet
    return free_response.Sheet(result.submission, "", f"{UNREAD}: the grader could not read "
                               f"this submission's identity and free responses ({error}, "
                               "logged); look at its notebook and results.json yourself", {}, [])


def _sheet(result, ref, settings) -> free_response.Sheet:
    who = _resolution(result, settings)
    questions = list(settings.free_response)
    # an upload that could not be graded says nothing about identity: its reason is shown instead
    flag = f"not graded: {result.error}" if result.error else (who.message() if who.flagged else "")
    return free_response.Sheet(result.submission, who.graded_as, flag,
                               variants.parameters(ref.EXAM, ref.tables(), who.graded_as),
                               free_response.extract(result.cells, questions))


def _write_free_responses(out: Path, sheets, title: str) -> list[str]:
    sections, unwritten = [], []
    for s in sheets:
        body, error = guard.attempt(f"the free responses of {s.submission}", _write_sheet,
                                    out, s, title)
        if error:
            unwritten.append(s.submission)
            body = (f'<section class="student"><h1>{esc(s.submission)}</h1><p class="flag">'
                    f"This page could not be written ({esc(error)}, logged).</p></section>")
        sections.append(body)
    combined = out / COMBINED
    write_atomic(combined, free_response.page(f"{title}: free responses", sections))
    lines = [f"  free responses for manual grading: {combined} "
             f"(and {out}/<submission>/free_response.html)"]
    if unwritten:
        lines.append(f"  warning: the free responses of {len(unwritten)} submissions could "
                     f"not be written: {', '.join(unwritten[:10])}")
    pdf = out / PDF
    problem = free_response.to_pdf(combined, pdf)
    lines.append(f"  {problem}" if problem else f"  free responses as PDF: {pdf}")
    return lines


def _write_sheet(out: Path, sheet, title: str) -> str:
    """One submission's free_response.html; its body, for the combined page."""
    body = free_response.sheet_html(sheet)
    write_atomic(out / sheet.submission / "free_response.html",
                 free_response.page(f"{title}: {sheet.submission}", [body]))
    return body


def difficulty(results, questions: list[str], max_points: dict[str, float]) -> list[dict]:
    """One row per (question, variant) seen: submissions, mean score and full marks.

    Submissions that could not be graded at all are left out (they say
    nothing about a variant)."""
    groups: dict[tuple[str, int], list[float]] = {}
    for r in results:
        if r.error:
            continue
        scores = r.question_scores(questions)
        for q, v in r.annotations.get("exam", {}).get("variants", {}).items():
            groups.setdefault((q, v), []).append(scores.get(q, 0.0))
    rows = []
    def order(item):
        (question, variant), _ = item
        return questions.index(question), variant

    for (q, v), scores in sorted(groups.items(), key=order):
        rows.append({"question": q, "variant": v, "submissions": len(scores),
                     "mean": round(statistics.fmean(scores), 4), "max_points": max_points[q],
                     "full_marks": sum(s >= max_points[q] for s in scores)})
    return rows


DIFFICULTY_COLUMNS = ["question", "variant", "submissions", "mean", "max_points", "full_marks"]


def _csv(rows: list[dict]) -> str:
    return csv_text([DIFFICULTY_COLUMNS, *([r[c] for c in DIFFICULTY_COLUMNS] for r in rows)])


def _flags_csv(flagged) -> str:
    return csv_text([["submission", "graded_as", "flag"],
                     *([s.submission, s.identity, s.flag] for s in flagged)])


def difficulty_html(rows: list[dict], ref, title: str, named: list[str] = ()) -> str:
    """`named`: the misconceptions' sections (misconception_sections), after the difficulty."""
    body = [f"<h1>{esc(title)}: difficulty per variant</h1>", *difficulty_sections(rows, ref),
            *named]
    return free_response.page(f"{title}: difficulty per variant", body)


def class_report_section(batch: Batch) -> list[str]:
    """HTML for the class report: difficulty per variant ([] for a homework)."""
    a = batch.assignment
    if not any(getattr(r, "annotations", {}).get("exam") for r in batch.results):
        return []
    rows = difficulty(batch.results, a.questions, {q: a.config.max_points(q) for q in a.questions})
    # the whole exam's ranking is report.html's own section: here only per variant
    return ["<h2>Difficulty per variant</h2>", *difficulty_sections(rows, a.reference, level=3),
            *misconception_sections(batch.results, a.diagnoses, a.questions, a.reference)]


def variant_of(result, question: str):
    """The variant of `question` the result was graded on (None when no test recorded it)."""
    return result.annotations.get("exam", {}).get("variants", {}).get(question)


def misconceptions_per_variant(results, diagnoses: dict, questions: list[str]):
    """misconceptions.ranked, counted apart per variant of each question: the students of
    each variant whose feedback named each known mistake, of that variant's graded ones."""
    return misconceptions.ranked(results, diagnoses, questions, group=variant_of)


def misconception_sections(results, diagnoses: dict, questions: list[str], ref,
                           whole: bool = False) -> list[str]:
    """HTML: per question with diagnoses, each variant seen with the misconceptions its
    students' feedback named (a variant with none says so), most named first; `whole`:
    the ranking for the whole exam first. [] when the exam declares no diagnoses."""
    if not diagnoses:
        return []
    head = ["<h2>Misconceptions to reteach, per variant</h2>",
            '<p class="muted">How many students of each variant had feedback naming each '
            "known mistake (a failing test whose answers are that mistake's, on that "
            "student's numbers), with the section to reteach. A mistake common in one "
            "variant only may come from its numbers rather than from the teaching.</p>"]
    if whole:
        overall = misconceptions.ranked(results, diagnoses, questions)
        head += ["<h3>The whole exam</h3>", _named_table(
            ["question", "misconception", "section to reteach", "students"],
            [[esc(n.question), esc(n.explanation), esc(n.section), f"{n.students} of {n.graded}"]
             for n in overall]) if overall else "<p>No known mistake was named.</p>"]
    per = misconceptions_per_variant(results, diagnoses, questions)
    seen = _variants_seen(results, questions)
    body, unnamed = [], []
    for q in [q for q in questions if q in diagnoses and seen.get(q)]:
        qrows = [n for n in per if n.question == q]
        if not qrows:
            unnamed.append(q)
            continue
        body.append(f"<h3>{esc(q)}</h3>")
        table_rows = []
        for v, graded in seen[q].items():
            named = [n for n in qrows if n.group == v]
            table_rows += [[str(v), esc(_describe(ref, q, v)), esc(n.explanation),
                            esc(n.section), f"{n.students} of {n.graded}"] for n in named] or [
                [str(v), esc(_describe(ref, q, v)), '<span class="muted">none named</span>',
                 "", f"0 of {graded}"]]
        # a diagnosis of a result that recorded no variant (its question stopped early)
        table_rows += [["-", "", esc(n.explanation), esc(n.section),
                        f"{n.students} of {n.graded}"] for n in qrows if n.group is None]
        body.append(_named_table(["variant", "numbers", "misconception", "section to reteach",
                                  "students"], table_rows))
    if unnamed:
        body.append(f"<p>No known mistake was named in any variant of: {esc(', '.join(unnamed))}."
                    "</p>")
    return head + body if body else []


def _named_table(header: list[str], rows: list[list[str]]) -> str:
    return table(header, rows, numeric={len(header) - 1}, raw=True)


def _variants_seen(results, questions: list[str]) -> dict[str, dict[int, int]]:
    """{question: {variant: graded submissions of it}}, variants in order."""
    seen: dict[str, dict[int, int]] = {}
    for r in results:
        if r.error:
            continue
        for q, v in r.annotations.get("exam", {}).get("variants", {}).items():
            if q in questions:
                seen.setdefault(q, {}).setdefault(v, 0)
                seen[q][v] += 1
    return {q: dict(sorted(vs.items())) for q, vs in seen.items()}


def difficulty_sections(rows: list[dict], ref, level: int = 2) -> list[str]:
    """Per question: its variants side by side, the easiest and hardest named."""
    body = ['<p class="muted">Mean score of the submissions that got each variant of a '
            "question. With few submissions per variant, differences of one submission "
            "are noise: look for a variant far below the others with several submissions."
            "</p>"]
    for q in dict.fromkeys(r["question"] for r in rows):
        qrows = [r for r in rows if r["question"] == q]
        table_rows = [[r["variant"], _describe(ref, q, r["variant"]), r["submissions"],
                       f"{100 * r['mean'] / r['max_points']:.0f}%" if r["max_points"] else "-",
                       f"{r['full_marks']} of {r['submissions']}"] for r in qrows]
        body += [f"<h{level}>{esc(q)}</h{level}>", _spread(qrows),
                 table(["variant", "numbers", "submissions", "mean score", "full marks"],
                       table_rows, numeric={0, 2, 3})]
    return body


def _describe(ref, question: str, v: int) -> str:
    numbers = ref.variant_table(question)[v]
    return ", ".join(f"{k}={val}" for k, val in numbers.items())


def _spread(qrows: list[dict]) -> str:
    rates = [(r["mean"] / r["max_points"], r["variant"]) for r in qrows if r["max_points"]]
    if len(rates) < 2:
        return '<p class="muted">One variant seen so far.</p>'
    (lo, v_lo), (hi, v_hi) = min(rates), max(rates)
    text = (f"Hardest variant {v_lo} ({100 * lo:.0f}%), easiest {v_hi} ({100 * hi:.0f}%): "
            f"a spread of {fmt(round(100 * (hi - lo)))} points of percentage. ")
    p = homogeneity_p(qrows)
    text += ("Too few submissions per variant to test whether they differ (a test needs "
             "two variants with 5 or more)." if p is None else
             f"Chi-square test that all variants give full marks equally often: p = {p:.3g}"
             + (" (a difference this large is unlikely to be chance)." if p < 0.01 else "."))
    return f"<p>{esc(text)}</p>"


def homogeneity_p(qrows: list[dict], min_n: int = 5) -> float | None:
    """p-value of Pearson's chi-square test that the full-marks rate is the
    same in every variant with at least min_n submissions (None: fewer than
    two such variants, or nobody or everybody at full marks)."""
    groups = [(r["full_marks"], r["submissions"]) for r in qrows if r["submissions"] >= min_n]
    n = sum(g[1] for g in groups)
    full = sum(g[0] for g in groups)
    if len(groups) < 2 or full in (0, n):
        return None
    rate = full / n
    chi2 = sum((f - m * rate) ** 2 / (m * rate) + ((m - f) - m * (1 - rate)) ** 2 / (m * (1 - rate))
               for f, m in groups)
    import torch  # the regularised upper incomplete gamma function: P(X > chi2), k - 1 df
    df = torch.tensor((len(groups) - 1) / 2, dtype=torch.float64)
    return float(torch.special.gammaincc(df, torch.tensor(chi2 / 2, dtype=torch.float64)))
