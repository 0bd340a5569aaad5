"""Writing every report of one grading run, in order:

1. before grading: `prepare` reads the roster (so a bad one stops us before
   minutes of grading) and snapshots the previous results for the regrade
   diff; `reserved_names` says which files the reports will write, so that no
   submission id takes one of their names (the driver hands them to the
   engine's discovery: the engine never imports the reports);
2. after grading: `write_all` runs the run's reports in the order they are
   declared (`declared`: the assignment's own first, an exam's through
   hooks.BatchReports, then REPORTS at the end of this module): the export
   for grading by hand, feedback, feedback_for_canvas.zip, the course
   policy's summary, gradebooks, the late-day ledger, the class report,
   regrade.md when there was a previous run and similarity.html when there
   are two submissions or more; it returns the lines the command prints.

Each report is declared once, as a Report: its name, the files it writes at
the top of DIR, what it needs of the Context, and its `write(context)`. To add
one, add an entry to REPORTS where its lines belong. What must stay true: one
report that fails (or one student's feedback) is reported in the lines
returned and the others are still written; a report writes at the top of DIR
only the files it declares; reports read what grading read (the cells it
kept, the times discovery took), never the submissions.

This is the pipeline's report stage (autograder/grade.py): it reads the graded
batch and writes beside grades.csv, never into what grading wrote.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.writing import write_atomic
from autograder import guard
from autograder.hooks import BatchReports
from autograder.course import excused, groups, lateness, manual_scores, penalties, roster
from autograder.course.accommodations import excused_ids
from autograder.report import (canvas, canvas_feedback, classreport, feedback, gradebook,
                               manual_export, regrade, similarity)

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
    due_text: str = ""
    """--due as given ("" without it): the printed due date says how it was read."""
    due_local: bool = False
    """--due had no offset or zone and was read in this machine's time zone."""


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
                    manual_scores.prepare(manual, assignment, out) if manual else None, anonymous,
                    due or "", bool(due) and not (terms and terms.course.zone)
                    and not lateness.has_offset(due))


class Context:
    """What a report reads: the graded batch (its entries as discovery found
    them, its results with the cells grading kept), what was read before
    grading, and what is computed once for several reports (NEEDS), each
    computed at the first report that needs it, saying its lines then."""

    def __init__(self, batch: Batch, prepared: Prepared):
        self.batch, self.prepared = batch, prepared
        self.out: Path = batch.out
        self.lines: list[str] = []
        """What the command prints, in order."""
        self.sections: list[str] = []
        """The parts of report.html the reports before it add (the assignment's
        own, hooks.BatchReports; canvas.csv's warnings)."""

    @cached_property
    def manual(self) -> manual_scores.Merge:
        """The rubric scores as the reports use them (none merged when they
        cannot be read: said, and the autograded points stand); says what was merged."""
        merge = _attempt(self.lines, "the rubric scores", manual_scores.Merge, self.batch,
                         self.prepared.manual) or manual_scores.Merge(self.batch, None)
        self.lines += merge.lines
        return merge

    @cached_property
    def timings(self) -> dict[str, lateness.Timing]:
        """Each submission's timing, from its metadata or the time discovery read."""
        timings = _timings(self.batch, self.prepared.due, self.lines)
        self.lines[:0] = _due_lines(self.prepared, timings)
        return timings

    @cached_property
    def rows(self) -> list[gradebook.Row]:
        """The gradebook's rows (the roster's, when there is one; a group's
        submission credited to each member; the rubric scores merged; the course
        policy applied); says who is missing and who matches no row."""
        return self._ruled[0]

    @cached_property
    def policy(self) -> penalties.Applied:
        """The course policy as applied to `rows`: its lines, the ledger to write."""
        return self._ruled[1]

    @cached_property
    def _ruled(self) -> tuple[list[gradebook.Row], penalties.Applied]:
        manual, timings, prepared = self.manual, self.timings, self.prepared  # their lines first
        students = prepared.roster.students if prepared.roster else None
        credited, found = groups.credit(self.batch.results, prepared.groups)
        rows, matched = _rows(credited, students, timings)
        rows = manual.rows(rows)  # before the policy: a late penalty is on the whole score
        self.lines += found + matched
        return _attempt(self.lines, "the course policy", penalties.apply, rows,
                        self.batch.assignment.id, prepared.due, prepared.policy) \
            or penalties.failed(rows)


NEEDS = ("manual", "timings", "rows", "policy")
"""What a Report may need: the Context's computed parts."""


@dataclass(frozen=True)
class Report:
    """One report of the report stage, as declared."""

    name: str
    """What the warning calls it when it fails ("gradebook.csv")."""
    files: tuple[str, ...]
    """The files it writes at the top of DIR, beside the submission folders
    (a submission's own files, such as feedback.md, are in that submission's
    folder and need no name of their own)."""
    write: Callable[[Context], list[str] | None]
    """Writes; returns the lines to print (None: none)."""
    needs: tuple[str, ...] = ()
    """Which of NEEDS it reads: computed before it runs."""

    def __post_init__(self):
        unknown = set(self.needs) - set(NEEDS)
        if unknown:
            raise ValueError(f"report {self.name!r} needs {sorted(unknown)}; known: {NEEDS}")


def declared(assignment_id: str, extra: Sequence[BatchReports] = ()) -> list[Report]:
    """Every report of a run, in the order they are written: the assignment's
    own (`extra`) first, then REPORTS."""
    return [r for reports in extra for r in _own(assignment_id, reports)] + list(REPORTS)


def reserved_names(assignment_id: str, extra: Sequence[BatchReports] = ()) -> tuple[str, ...]:
    """Every file the reports of a run may write at the top of DIR, as they declare them."""
    return tuple(dict.fromkeys(f for r in declared(assignment_id, extra) for f in r.files))


def write_all(batch: Batch, prepared: Prepared, extra: Sequence[BatchReports] = ()) -> list[str]:
    """Every report, in the declared order; one that fails is reported in the
    lines returned and the others are still written."""
    ctx = Context(batch, prepared)
    for report in declared(batch.assignment.id, extra):
        for need in report.needs:
            getattr(ctx, need)  # computed now, so that its lines come before the report's
        ctx.lines += _attempt(ctx.lines, report.name, report.write, ctx) or []
    if not batch.results:
        ctx.lines.insert(0, f"warning: no submissions found in {batch.submissions}; put one "
                            ".ipynb, folder or .zip per student there")
    return ctx.lines


def _own(assignment_id: str, reports: BatchReports) -> list[Report]:
    """An assignment's own reports as two entries: its files, then its part of report.html."""
    def section(ctx: Context) -> None:
        ctx.sections += reports.class_report_section(ctx.batch) or []

    return [Report(f"the {assignment_id} reports", tuple(reports.FILES),
                   lambda ctx: reports.write(ctx.batch)),
            Report(f"the {assignment_id} part of report.html", (), section)]


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
    mtimes = {e.id: e.mtime for e in batch.entries}  # as discovery read them
    timings, unknown = {}, []
    for r in batch.results:
        timing, error = guard.attempt(f"the timing of {r.submission}", lateness.timing,
                                      r, mtimes.get(r.submission), due)
        if error:
            unknown.append(r.submission)
        timings[r.submission] = timing or lateness.Timing(None, due, "")
    if unknown:
        lines.append(f"warning: when {len(unknown)} submissions came in could not be read "
                     f"(a fault of the grader, logged): {', '.join(unknown[:10])}; they are "
                     "shown as on time")
    canvas = sum(t.source == "canvas" for t in timings.values())
    if due is not None and canvas:  # course/lateness.py: Canvas's file names carry no time
        lines.append(f"warning: --due cannot judge {canvas} submissions of a Canvas download: "
                     "Canvas's files carry no submission time; only the submissions Canvas "
                     "itself recorded as late (_LATE in the file name) show as late")
    return timings


def _due_lines(prepared: Prepared, timings: dict[str, lateness.Timing]) -> list[str]:
    """The due date --due gave, with its zone; a warning when it had none and the
    submission times carry offsets (Gradescope's), since the machine's zone may
    not be the course's."""
    due = prepared.due
    if not prepared.due_text or due is None:
        return []
    how = " (no offset given: this machine's time zone)" if prepared.due_local else ""
    lines = [f"due date: {due:%Y-%m-%d %H:%M} {due.tzname()} (UTC{due:%z}){how}, from "
             f"--due {prepared.due_text!r}"]
    if prepared.due_local and any(t.source == "gradescope" for t in timings.values()):
        lines.append(f"warning: the submission times carry their offsets but --due "
                     f"{prepared.due_text!r} has none, so it was read in this machine's zone "
                     f"(UTC{due:%z}); if the course keeps another, give the offset, e.g. "
                     f"--due {prepared.due_text.strip()}-05:00")
    return lines


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


# ---- the common reports' writers, each a Report's `write` ----------------------------

def _manual_export(ctx: Context) -> list[str]:
    return manual_export.write(ctx.batch, ctx.prepared.anonymous)


def _feedback(ctx: Context) -> list[str]:
    """Each submission's feedback.md and .html, with its rubric scores and the
    policy's line; one that fails costs its own only."""
    a, manual, lines = ctx.batch.assignment, ctx.manual, []
    about = manual.context(feedback.Context(a.config.title, a.questions,
                                            {q: a.config.max_points(q) for q in a.questions}))
    for r in ctx.batch.results:
        _attempt(lines, f"the feedback of {r.submission}", feedback.write, ctx.out,
                 manual.result(r), about,
                 penalties.status(ctx.rows, r, ctx.timings[r.submission], manual.max_total,
                                  ctx.prepared.policy))
    return lines


def _canvas_feedback(ctx: Context) -> list[str]:
    return canvas_feedback.write(ctx.out, ctx.batch.results)


def _policy(ctx: Context) -> list[str]:
    """What the course policy did, then who was late (against their own due date)."""
    lines = list(ctx.policy.lines)
    late = penalties.late(ctx.rows, ctx.timings)
    if late:
        lines.append(f"late: {len(late)} submissions after the due date: "
                     + ", ".join(late[:10]) + (" ..." if len(late) > 10 else ""))
    return lines


def _gradebook(ctx: Context) -> None:
    write_atomic(ctx.out / "gradebook.csv", gradebook.gradebook_csv(ctx.rows, ctx.manual.max_total))


def _canvas(ctx: Context) -> list[str]:
    """canvas.csv; its warnings are printed and also shown in report.html."""
    lines = canvas.write(ctx.out / "canvas.csv", ctx.rows, ctx.batch.assignment, ctx.prepared,
                         ctx.manual.max_total) or []
    ctx.sections += canvas.section(lines)
    return lines


def _ledger(ctx: Context) -> list[str]:
    """The late-day ledger the policy kept, with this run's rows (none without one)."""
    ledger = ctx.policy.ledger
    if ledger is None:
        return []
    write_atomic(ledger.path, ledger.text())
    return [f"late days: {ledger.path} (the ledger; rows you edit or add are kept)"]


def _class_report(ctx: Context) -> None:
    classreport.write(ctx.out / "report.html", ctx.batch, ctx.sections)


def _where(ctx: Context) -> list[str]:
    out = ctx.out
    return [f"feedback for students: {out}/<submission>/feedback.md and feedback.html",
            f"gradebook: {out / 'gradebook.csv'} (status per student), "
            f"{out / 'canvas.csv'} (Canvas import)",
            f"class report: {out / 'report.html'}"]


def _regrade(ctx: Context) -> list[str]:
    path, previous, batch = ctx.out / "regrade.md", ctx.prepared.previous, ctx.batch
    if not previous:
        path.unlink(missing_ok=True)  # never leave a diff that belongs to another run
        return []
    changes = regrade.diff(previous, batch.results)
    tests_changed = regrade.test_changes(previous, batch.results)
    write_atomic(path, regrade.markdown(batch.assignment.id, changes, len(batch.results),
                                        tests_changed))
    return [regrade.short_summary(changes, batch.out)]


def _similarity(ctx: Context) -> list[str]:
    path = ctx.out / "similarity.html"
    if len(ctx.batch.results) < 2:
        path.unlink(missing_ok=True)  # never leave a page that belongs to another run
        return []
    return [similarity.write(path, ctx.batch)]


REPORTS: tuple[Report, ...] = (
    Report("the export for grading by hand", manual_export.FILES, _manual_export),
    Report("the feedback", (), _feedback, needs=("manual", "timings", "rows")),
    Report(canvas_feedback.NAME, (canvas_feedback.NAME,), _canvas_feedback),
    Report("the course policy's summary", (), _policy, needs=("rows", "policy")),
    Report("gradebook.csv", ("gradebook.csv",), _gradebook, needs=("manual", "rows")),
    Report("canvas.csv", ("canvas.csv",), _canvas, needs=("manual", "rows")),
    # the ledger is the policy file's (late_days.csv beside it, or where it says),
    # never a file of DIR: it declares no name a submission could take
    Report("the late-day ledger", (), _ledger, needs=("policy",)),
    Report("report.html", ("report.html",), _class_report),
    Report("the list of reports", (), _where),  # where the reports above are, whatever happened
    Report("regrade.md", ("regrade.md",), _regrade),
    Report("similarity.html", ("similarity.html",), _similarity),
)
"""The common reports, in the order they are written and their lines printed
(after the assignment's own: `declared`)."""
