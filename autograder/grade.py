"""`python -m autograder grade`: the grading pipeline, two stages.

    1. grade    every submission's results.json, then grades.csv
                (engine/batch.py locally, cluster/client.py on a Dask cluster)
    2. report   every report, from the graded batch (report/run.py): feedback,
                gradebooks, class report, regrade diff, similarity, and the
                assignment's own reports (an exam's, hooks.BatchReports)

The Gradescope entry (gradescope/run.py) and `bench` run stage 1 only. What
must stay true: a failure of stage 2 never touches what stage 1 wrote; the
roster, --due, --policy, --limit and --manual-scores are read, and the
assignment's own reports loaded, before stage 1, so a bad one costs no
grading time; stage 1 gives no submission the name of a file stage 2 writes
(report_run.reserved_names); only the user's mistakes end in `error: ...`
and status 2 (a bug of the grader's shows its traceback).
"""
from __future__ import annotations

import re
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from autograder import hooks, registry
from autograder.grade_options import GradeOptions

if TYPE_CHECKING:  # annotations only: importing the engine's batch starts torch
    from autograder.engine.batch import Batch


def main(options: GradeOptions) -> int:
    """Grade, then report; 0 when it could grade, 2 with a message when it cannot,
    1 when it graded but could not write all it graded (a full disk: the table
    says what is missing), NEEDS_REGRADE when hidden tests raised on the
    grader's side (points withheld), 130 (SIGINT) or 143 (SIGTERM) when a
    signal stopped a local batch early: the reports of those graded are
    written, and `options.resume` grades the rest (engine/interrupt.py)."""
    from autograder.cluster import ClusterError  # the exception only: no Dask import
    from autograder.engine import interrupt, summary
    from autograder.engine.config import ConfigError
    from autograder.engine.isolation.sandbox import SandboxUnavailable
    from autograder.course.roster import RosterError
    from autograder.report import canvas
    from autograder.report import run as report_run
    o, assignment = options, options.assignment
    problem = bad_options(o)
    if problem:
        return _refuse(problem)
    try:
        parsed_limits = parse_limits(o.limits)
    except UsageError as exc:
        return _refuse(str(exc))
    try:
        prepared = report_run.prepare(
            o.out, roster_path=o.roster, due=o.due, policy=o.policy, assignment=assignment,
            canvas_column=o.canvas_column, excused_path=o.excused, groups_path=o.groups,
            manual=o.manual_scores, anonymous=o.anonymous)
    except (RosterError, ValueError, ConfigError) as exc:
        return _refuse(str(exc))
    try:
        # checked here, not on a cluster's client, which may have no sandbox: build checks too
        wrong = None if o.scheduler else hidden_tests_disagree(assignment, o.allow_unsafe)
        if wrong:
            return _refuse(wrong)
        extra = assignment_reports(assignment)
        batch = grade_stage(assignment, o.submissions, o.out, jobs=o.jobs, quiet=o.quiet,
                            limits=parsed_limits, scheduler=o.scheduler, resume=o.resume,
                            allow_unsafe=o.allow_unsafe,
                            reserved=report_run.reserved_names(assignment, extra))
    except (ClusterError, ConfigError, SandboxUnavailable) as exc:  # the user's to fix;
        return _refuse(str(exc))  # any other exception is ours: its traceback, exit 1
    # results kept from the interrupted run this one resumes are this run's, not an earlier one's
    prepared.previous = {sid: tests for sid, tests in prepared.previous.items()
                         if sid not in batch.resumed}
    lines = report_stage(batch, prepared, extra)
    if not o.quiet:
        print(summary.table(batch, lines))
    else:  # --quiet drops the progress and the table, never a warning
        said = [line for line in lines if line.startswith(canvas.WARNING)]
        said += summary.unwritten(batch)
        if said:
            print("\n".join(said), file=sys.stderr)
    if batch.interrupted is not None:
        print(interrupted_line(batch), file=sys.stderr)
        return interrupt.status(batch.interrupted)
    if batch.unwritten:
        return 1
    if any(r.needs_regrade for r in batch.results):
        print("error: some hidden tests raised on the grader's side; the submissions they "
              "graded need a regrade (see the summary, gradebook.csv and report.html)",
              file=sys.stderr)
        return NEEDS_REGRADE
    return 0


def interrupted_line(batch: Batch) -> str:
    """What an interrupted run says last: how far it got, what its files cover,
    what to do next."""
    return (f"interrupted: {len(batch.results)} of {len(batch.entries)} submissions graded "
            f"and written in {batch.out}; grades.csv and the reports cover those; rerun with "
            "--resume to grade the rest")


def hidden_tests_disagree(assignment: str, allow_unsafe: bool = False) -> str | None:
    """Why the hidden tests cannot be trusted to grade anyone (the master's own
    solution loses a point, or the untouched notebook earns one), or None. The check
    grades in the sandbox the batch will get (none only where `allow_unsafe`)."""
    from autograder.build import selfcheck
    from autograder.build.transforms import BuildError
    try:
        found = selfcheck.before_grading(assignment, allow_unsafe)
    except BuildError as exc:  # the master itself is broken
        return f"{assignment}: {exc}"
    if not found:
        return None
    return (f"{assignment}: the hidden tests disagree with their own answers, so no one is "
            "graded (fix the tests, then grade again):\n  " + "\n  ".join(found))


NEEDS_REGRADE = 3
"""grade's exit status when everyone was graded but some points are withheld."""
MAX_JOBS = 1024
"""More submissions graded at once than this is a typo (1e9), not a machine."""


class UsageError(Exception):
    """A mistake in the grade command's arguments; the message says what to do
    (exit 2, no traceback). Only the parsing of arguments raises it, so that a
    TypeError or ValueError of the grader's own is never mistaken for one."""


def _refuse(problem: str) -> int:
    print(f"error: {problem}", file=sys.stderr)
    return 2


def grade_stage(assignment: str, submissions: Path, out: Path, *, jobs, quiet, limits,
                scheduler, resume, allow_unsafe, reserved: tuple[str, ...] = ()) -> Batch:
    """Stage 1, locally or on a Dask cluster (Dask is imported only then): the Batch.
    `reserved`: the files stage 2 writes beside the submission folders."""
    if scheduler is None:
        from autograder.engine import batch
        return batch.grade_folder(assignment, submissions, out, jobs=jobs,
                                  progress=not quiet, limits=limits, allow_unsafe=allow_unsafe,
                                  reserved=reserved, interruptible=True, resume_run=resume)
    from autograder.cluster import client
    return client.grade_folder(assignment, submissions, out, scheduler, resume_run=resume,
                               progress=not quiet, limits=limits, reserved=reserved)


def report_stage(batch: Batch, prepared,
                 extra: list[hooks.BatchReports] | None = None) -> list[str]:
    """Stage 2: every report; the lines to print. grades.csv is written already,
    so a failure here is reported, not fatal. `extra`: the assignment's own
    reports as `main` loaded them before grading (None: loaded here)."""
    from autograder.report import run as report_run
    try:
        if extra is None:
            extra = assignment_reports(batch.assignment.id)
        return report_run.write_all(batch, prepared, extra)
    except Exception as exc:  # a bug of ours: the grades stand, say what is missing
        traceback.print_exc()
        return [f"warning: the reports could not be written ({type(exc).__name__}: {exc}); "
                "grades.csv and results.json are complete"]


def assignment_reports(assignment: str) -> list[hooks.BatchReports]:
    """The assignment's own reports (autograder/<id>/reports.py), if it has any;
    TypeError when the module lacks what hooks.BatchReports names."""
    record = registry.get(assignment)
    if not record.has_reports:
        return []
    return [hooks.load(f"{record.package}.reports", hooks.BatchReports)]


def bad_options(options: GradeOptions) -> str | None:
    """What is wrong with the grade command's arguments, if anything."""
    from autograder.engine.intake import submissions as submissions_mod
    submissions, assignment, out = options.submissions, options.assignment, options.out
    jobs, scheduler, allow_unsafe = options.jobs, options.scheduler, options.allow_unsafe
    if assignment not in registry.ids():
        return f"unknown assignment {assignment!r}; known: {', '.join(registry.ids())}"
    problem = submissions_mod.problem_with(submissions)
    if problem:
        return problem
    if out.exists() and not out.is_dir():
        return f"--out {out} is a file; give a folder (it is created if needed)"
    if submissions.is_dir() and out.resolve().is_relative_to(submissions.resolve()):
        where = "is the submissions folder" if out.resolve() == submissions.resolve() \
            else f"is inside the submissions folder {submissions}"
        return (f"--out {out} {where}: the next run would grade the grader's own files as "
                "a student's; give a folder outside it (such as one beside it)")
    if jobs is not None and jobs < 1:
        return "--jobs must be 1 or more"
    if jobs is not None and jobs > MAX_JOBS:
        return f"--jobs {jobs} is more than {MAX_JOBS}: give about one per core"
    if scheduler and allow_unsafe:
        return ("--unsafe-no-sandbox applies to local grading only: each Dask host chooses "
                "its own sandbox when it starts (docs/scaling.md)")
    if scheduler and jobs is not None:
        return ("--jobs does not apply with --scheduler: each Dask worker grades as many "
                "submissions at once as it has threads (dask worker --nthreads)")
    return None


NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
"""A number as written on a command line: 20, 2.5, .5, 1e3 (not nan, inf or 1_000)."""


def parse_number(text: str) -> int | float:
    """'20' -> 20, '2.5' -> 2.5, '1e3' -> 1000.0; UsageError for anything else."""
    text = text.strip()
    if not NUMBER.fullmatch(text):
        raise UsageError(f"{text!r} is not a number (write it like 20, 2.5 or 1e3)")
    try:
        return int(text)
    except ValueError:
        return float(text)


def parse_limits(pairs) -> dict:
    """["notebook_seconds=20", ...] -> {"notebook_seconds": 20.0}, each value
    within its limit's range (engine/config.py LIMIT_RANGES); UsageError with a
    message naming the limit and what it accepts."""
    from autograder.engine.config import LIMIT_RANGES, ConfigError, check_limit
    limits = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep:
            raise UsageError(f"--limit expects NAME=VALUE, got {pair!r}")
        if name not in LIMIT_RANGES:
            raise UsageError(f"--limit {pair}: unknown limit {name!r}; "
                             f"known: {', '.join(LIMIT_RANGES)}")
        try:
            limits[name] = check_limit(name, parse_number(value))
        except UsageError:
            raise UsageError(f"--limit {pair}: the value must be a number "
                             "(such as 20, 2.5 or 1e3)") from None
        except ConfigError as exc:
            raise UsageError(f"--limit {pair}: {exc}") from None
    return limits
