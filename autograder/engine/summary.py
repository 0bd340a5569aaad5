"""The readable summary `grade` prints: one row per submission, one column per question.

The terminal is a sink that obeys what it prints: whatever text reaches the
table is shown with its control characters escaped (engine.intake.untrusted.visible),
never as a sequence that could clear the screen or fake a row.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from autograder.engine.intake import untrusted

if TYPE_CHECKING:  # annotations only: importing the engine's batch starts torch
    from autograder.engine.batch import Batch


def table(batch: Batch, reports: list[str] = ()) -> str:
    """The table, then `reports`: the lines of the report stage (files written, warnings)."""
    a = batch.assignment
    questions = a.questions
    head = ["submission", *questions, "total"]
    maxima = ["(max)", *(_fmt(a.config.max_points(q)) for q in questions), _fmt(a.max_total)]
    rows = [head, maxima]
    for r in sorted(batch.results, key=lambda r: r.submission):
        scores = r.question_scores(questions)
        rows.append([r.submission, *(_fmt(scores[q]) for q in questions), _fmt(r.score)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(row, widths))) for row in rows]
    lines.insert(2, "-" * len(lines[0]))
    problems = [f"  {r.submission}: {r.notes[0]}" for r in sorted(batch.results, key=lambda r: r.submission)
                if r.notes]
    out = [f"{a.config.title} ({a.id}): {len(batch.results)} submissions graded in "
           f"{batch.seconds:.1f} s", "", *lines]
    if problems:
        out += ["", "notes (first per submission; all in each results.json):", *problems]
    regrade = sorted(r.submission for r in batch.results if r.needs_regrade)
    if regrade:
        tests = sorted({f"{t.question}::{t.name}" for r in batch.results for t in r.needs_regrade})
        out += ["", f"NEEDS REGRADE: {len(regrade)} submission(s) ({', '.join(regrade[:10])}"
                f"{' ...' if len(regrade) > 10 else ''}): hidden tests raised on the grader's "
                f"side ({', '.join(tests)}), so their points are withheld. Fix the tests "
                f"(python -m autograder audit {a.id} shows them), then grade again."]
    out += ["", f"grades: {batch.out / 'grades.csv'}",
            f"per-submission results: {batch.out}/<submission>/results.json"]
    out += unwritten(batch)
    out += reports
    return untrusted.visible("\n".join(out))


def unwritten(batch: Batch) -> list[str]:
    """What grading could not write (engine/batch.Batch.unwritten), as lines to print."""
    if not batch.unwritten:
        return []
    return [f"error: {len(batch.unwritten)} files of grading could not be written (the scores "
            "above are complete; free space in the output folder and grade again):",
            *(f"  {u}" for u in batch.unwritten)]


def _fmt(x: float) -> str:
    return f"{x:g}"
