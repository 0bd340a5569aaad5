"""Writing every report of one grading run, in order:

1. before grading: `prepare` reads the roster (so a bad one stops us before
   minutes of grading) and snapshots the previous results for the regrade diff;
2. after grading: `write_all` writes the assignment's own reports (an exam's,
   hooks.BatchReports), feedback, gradebooks, the class report, regrade.md
   when there was a previous run and similarity.html when there are two
   submissions or more; it returns the lines the command prints.

This is the pipeline's report stage (autograder/grade.py): it reads the graded
batch and writes beside grades.csv, never into what grading wrote.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.writing import write_atomic
from autograder.hooks import BatchReports
from autograder.report import (canvas, canvas_feedback, classreport, excused, feedback,
                               gradebook, groups, guard, lateness, manual_export, manual_scores,
                               penalties, regrade, roster, similarity)
from autograder.report.accommodations import excused_ids

if TYPE_CHECKING:  # annotations only: importing the engine's batch starts torch
    from autograder.engine.batch import Batch


@dataclass
class Prepared:
    roster: roster.Roster | None = None
    previous: dict[str, regrade.Tests] = field(default_factory=dict)
    due: datetime | None = None
    policy: penalties.Terms | None = None
    canvas_column: str | None = None
    excused: frozenset[str] = frozenset()
    groups: groups.Groups | None = None
    manual: manual_scores.Given | None = None
    anonymous: bool = True
    """Whether the export for grading by hand hides who each code is."""


def prepare(out: Path, roster_path: Path | None = None, due: str | None = None,
            policy: Path | None = None, assignment: str = "",
            canvas_column: str | None = None, excused_path: Path | None = None,
            groups_path: Path | None = None, manual: Path | None = None,
            anonymous: bool = True) -> Prepared:
    """Raises roster.RosterError or ValueError (bad --due, a mistake in the
    --policy file or its CSV files, a bad --canvas-column, --excused or
    --groups, a mistake in the --manual-scores file: rubric.RubricError) with
    a message for the user. The excused are --excused's and the
    policy's accommodations' (excused for `assignment`), as one set."""
    terms = penalties.prepare(policy) if policy else None
    due_time = penalties.parse_due(due, terms) if due else None
    excused_set = excused.read(excused_path) if excused_path else frozenset()
    if terms:
        excused_set |= {i.strip().casefold() for i in excused_ids(terms.accommodations, assignment)}
    return Prepared(roster.read(roster_path) if roster_path else None, regrade.snapshot(out),
                    due_time or (terms and terms.course.due(assignment)), terms,
                    canvas.check_column(canvas_column) if canvas_column else None,
                    frozenset(excused_set), groups.read(groups_path) if groups_path else None,
                    manual_scores.prepare(manual, assignment, out) if manual else None, anonymous)


def write_all(batch: Batch, submissions: Path, prepared: Prepared,
              extra: Sequence[BatchReports] = ()) -> list[str]:
    """Every report, `extra` first (the assignment's own); one that fails (one
    student's feedback, one export) is reported in the lines returned and the
    others are still written."""
    out, a = batch.out, batch.assignment
    lines: list[str] = []
    sections: list[str] = []  # the extra reports' parts of report.html
    for reports in extra:
        lines += _attempt(lines, f"the {a.id} reports", reports.write, batch) or []
        sections += _attempt(lines, f"the {a.id} part of report.html",
                             reports.class_report_section, batch) or []
    lines += _attempt(lines, "the export for grading by hand", manual_export.write, batch,
                      prepared.anonymous) or []
    manual = _attempt(lines, "the rubric scores", manual_scores.Merge, batch,
                      prepared.manual) or manual_scores.Merge(batch, None)
    lines += manual.lines
    timings = _timings(batch, prepared.due, lines)
    ctx = manual.context(feedback.Context(a.config.title, a.questions,
                                          {q: a.config.max_points(q) for q in a.questions}))
    students = prepared.roster.students if prepared.roster else None
    credited, found = groups.credit(batch.results, prepared.groups)
    rows, matched = _rows(credited, students, timings)
    rows = manual.rows(rows)  # before the policy: a late penalty is on the whole score
    lines += found + matched
    rows, policy = _attempt(lines, "the course policy", penalties.apply, rows, a.id,
                            prepared.due, prepared.policy) or penalties.failed(rows)
    for r in batch.results:
        _attempt(lines, f"the feedback of {r.submission}", feedback.write, out, manual.result(r),
                 ctx, penalties.status(rows, r, timings[r.submission], manual.max_total,
                                       prepared.policy))
    lines += _attempt(lines, canvas_feedback.NAME, canvas_feedback.write, out, batch.results) or []
    lines += policy.lines
    late = penalties.late(rows, timings)
    if late:
        lines.append(f"late: {len(late)} submissions after the due date: "
                     + ", ".join(late[:10]) + (" ..." if len(late) > 10 else ""))
    if not batch.results:
        lines.insert(0, f"warning: no submissions found in {submissions}; put one .ipynb, "
                        "folder or .zip per student there")
    _attempt(lines, "gradebook.csv", lambda: write_atomic(
        out / "gradebook.csv", gradebook.gradebook_csv(rows, manual.max_total)))
    canvas_lines = _attempt(lines, "canvas.csv", canvas.write, out / "canvas.csv", rows, a,
                            prepared, manual.max_total) or []
    lines, sections = lines + canvas_lines, sections + canvas.section(canvas_lines)
    lines += _attempt(lines, "the late-day ledger", policy.write_ledger) or []
    _attempt(lines, "report.html", classreport.write, out / "report.html", batch, sections)
    lines += [f"feedback for students: {out}/<submission>/feedback.md and feedback.html",
              f"gradebook: {out / 'gradebook.csv'} (status per student), "
              f"{out / 'canvas.csv'} (Canvas import)",
              f"class report: {out / 'report.html'}"]
    lines += _attempt(lines, "regrade.md", _regrade, batch, prepared.previous) or []
    lines += _attempt(lines, "similarity.html", _similarity, batch) or []
    return lines


def _attempt(lines: list[str], what: str, write, *args):
    """Run one report writer; a failure becomes a warning line (and a logged
    traceback), never the end of the other reports."""
    done, error = guard.attempt(f"writing {what}", write, *args)
    if error:
        lines.append(f"warning: {what} could not be written ({error}); "
                     "grades.csv and every results.json are complete")
    return done


def _timings(batch: Batch, due: datetime | None, lines: list[str]) -> dict[str, lateness.Timing]:
    """Each submission's timing; one that cannot be read is unknown (and said)."""
    paths = {e.id: e.path for e in batch.entries}  # as grading found them
    timings, unknown = {}, []
    for r in batch.results:
        timing, error = guard.attempt(f"the timing of {r.submission}", lateness.timing,
                                      r, paths.get(r.submission), due)
        if error:
            unknown.append(r.submission)
        timings[r.submission] = timing or lateness.Timing(None, due, "")
    if unknown:
        lines.append(f"warning: when {len(unknown)} submissions came in could not be read "
                     f"(a fault of the grader, logged): {', '.join(unknown[:10])}; they are "
                     "shown as on time")
    canvas = sum(t.source == "canvas" for t in timings.values())
    if due is not None and canvas:  # lateness.py: Canvas's file names carry no time
        lines.append(f"warning: --due cannot judge {canvas} submissions of a Canvas download: "
                     "Canvas's files carry no submission time; only the submissions Canvas "
                     "itself recorded as late (_LATE in the file name) show as late")
    return timings


def _rows(results, students, timings) -> tuple[list[gradebook.Row], list[str]]:
    ordered = sorted(results, key=lambda r: r.submission)
    if students is None:  # a row per submitter: each member of a group gets the group's score
        return [gradebook.Row(None, r, timings[r.submission], "", member)
                for r in ordered for member in roster.members(r)], []
    matching = roster.match(students, ordered)
    rows = [gradebook.Row(s, r, timings[r.submission] if r else None, "yes",
                          problem=matching.unclear_rows.get(i, ""))
            for i, (s, r) in enumerate(matching.pairs)]
    rows += [gradebook.Row(None, r, timings[r.submission], "no",
                           problem=matching.unclear_submissions.get(r.submission, ""))
             for r in matching.unclaimed]
    missing = [s.label for i, (s, r) in enumerate(matching.pairs)
               if r is None and i not in matching.unclear_rows]
    lines = []
    if missing:
        lines.append(f"roster: {len(missing)} of {len(students)} students have no submission: "
                     + ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else ""))
    if matching.unclaimed:
        lines.append(f"roster: {len(matching.unclaimed)} submissions match no roster row "
                     "(listed in gradebook.csv with on_roster=no, left out of canvas.csv): "
                     + ", ".join(r.submission for r in matching.unclaimed[:10]))
    unclear = [*matching.unclear_rows.values(), *matching.unclear_submissions.values()]
    if unclear:
        lines.append(f"roster: {len(unclear)} matches are unclear and were not made (each "
                     "in gradebook.csv's note; nothing is guessed):")
        lines += [f"  {problem}" for problem in unclear[:10]]
    return rows, lines


def _similarity(batch: Batch) -> list[str]:
    path = batch.out / "similarity.html"
    if len(batch.results) < 2:
        path.unlink(missing_ok=True)  # never leave a page that belongs to another run
        return []
    return [similarity.write(path, batch)]


def _regrade(batch: Batch, previous) -> list[str]:
    path = batch.out / "regrade.md"
    if not previous:
        path.unlink(missing_ok=True)  # never leave a diff that belongs to another run
        return []
    changes = regrade.diff(previous, batch.results)
    tests_changed = regrade.test_changes(previous, batch.results)
    write_atomic(path, regrade.markdown(batch.assignment.id, changes, len(batch.results),
                                        tests_changed))
    return [regrade.short_summary(changes, batch.out)]
