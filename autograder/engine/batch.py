"""Grading a folder of submissions, the pipeline's first stage: in parallel,
each result written as soon as its submission's processes are dead (kept
for --resume: engine/resume.py), grades.csv at the end. Reports are the
next stage's (autograder/grade.py).

What must stay true: a batch never loses what it graded. A write that
fails (a full disk, a folder that cannot be made) costs the file being
written, never the others nor the batch: every result stays in the batch
(grades.csv, the reports and the printed table have it), and
Batch.unwritten says what is missing. A batch stopped by SIGINT or SIGTERM
(engine/interrupt.py) keeps every result finished before the signal, kills
its workers and gives the submissions they were grading no result at all
(never a zero for the grader's own stop): `--resume` grades them."""
from __future__ import annotations

import dataclasses
import logging
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from autograder.engine import assignment as assignment_mod
from autograder.engine import interrupt, resume
from autograder.engine import results as results_mod
from autograder.engine.grader import Grader
from autograder.engine.intake import foreign, handout, kept_cells, untrusted
from autograder.engine.intake.notebook import NotebookError, code_cells, parse_cells
from autograder.engine.progress import Progress
from autograder.engine.results import SubmissionResult
from autograder.engine.isolation.sandbox import SandboxUnavailable
from autograder.engine.driving.runner import grade_cells
from autograder.engine.intake.submissions import Entry, SubmissionError, discover, read_notebook_bytes
from autograder.engine.isolation.workers import WorkerDied
from autograder.writing import write_atomic

log = logging.getLogger(__name__)


@dataclass
class Batch:
    assignment: assignment_mod.LoadedAssignment
    out: Path
    results: list[SubmissionResult] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    """What was found in the submissions folder (reports need the paths)."""
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    unwritten: list[str] = field(default_factory=list)
    """Files of grading that could not be written, and why (for the summary)."""
    submissions: Path | None = None
    """The folder (or notebook) the entries were found in, as the command named it."""
    interrupted: int | None = None
    """The signal that stopped grading early (results then has only those graded)."""
    resumed: list[str] = field(default_factory=list)
    """The submissions whose results an earlier, interrupted run gave (--resume)."""


def grade_folder(assignment_id: str, submissions: Path, out: Path, jobs: int | None = None,
                 progress: bool = True, limits: dict | None = None,
                 entries: list[Entry] | None = None, allow_unsafe: bool = False,
                 profile: bool = False, secrets: tuple[Path, ...] = (),
                 announce: bool = True, reserved: tuple[str, ...] = (),
                 interruptible: bool = False, resume_run: bool = False,
                 diagnose: bool = True) -> Batch:
    """Grade every entry of `submissions` into `out`; `limits` overrides the
    config's (tests use short timeouts). `entries`: the caller's own
    discovery of `submissions`, carrying what it knows that the folder does
    not (run-gradescope: Gradescope's metadata). `profile`: measure where each
    submission's time goes (engine/grader.Grader; `bench --profile`).
    `secrets`: more paths workers must never see (run-gradescope: the results
    folder and the metadata). `announce`: print the sandbox's line (not for a
    batch of the grader's own, such as build's self-check). `reserved`: the
    files the caller writes beside the submission folders (the report
    stage's), which no submission id may take (discover). `interruptible`:
    SIGINT and SIGTERM stop the batch early (Batch.interrupted) instead of
    their default (the grade command's; not a batch of the grader's own).
    `resume_run`: grade only the entries `out` lacks a complete result of
    (engine/resume.py). `diagnose`: failing tests get their diagnoses (off for a
    caller that reads only the scores: `audit`, build's self-check; a diagnosis is
    text, never points, and hw4's drives of its mistakes took half an audit's time).
    Raises SandboxUnavailable, before anything is written, where no sandbox works
    and `allow_unsafe` is False."""
    with interrupt.Stop(interruptible) as stop:
        batch = _grade_folder(assignment_id, submissions, out, jobs, progress, limits,
                              entries, allow_unsafe, profile, secrets, announce, reserved,
                              resume_run, diagnose, stop)
        batch.interrupted = stop.signum
        finish(batch)  # still under Stop: a second signal cannot cut grades.csv short
    return batch


def _grade_folder(assignment_id, submissions, out, jobs, progress, limits, entries,
                  allow_unsafe, profile, secrets, announce, reserved, resume_run, diagnose,
                  stop: interrupt.Stop) -> Batch:
    assignment = assignment_mod.load(assignment_id, limits)
    if not diagnose:
        assignment = dataclasses.replace(assignment, diagnoses={})
    jobs = jobs or os.cpu_count() or 1
    made = make_output_folder(out)  # before the sandbox is chosen: its permissions are judged
    grader = Grader(assignment, [submissions.resolve(), out.resolve(),
                                 *(p.resolve() for p in secrets)],
                    allow_unsafe=allow_unsafe, workers_at_once=jobs, profile=profile)
    try:
        grader.start()
    except SandboxUnavailable:
        if made:
            out.rmdir()  # nothing is written where nothing can be graded
        raise
    if announce:
        print(grader.line(), file=sys.stderr)
    start = time.monotonic()
    try:
        entries, warnings = ((entries, []) if entries is not None
                             else discover(submissions, reserved))
        batch = Batch(assignment, out, entries=entries, warnings=warnings,
                      submissions=submissions)
        kept, said = resume.begin(out, assignment, [e.id for e in entries], resume_run)
        batch.warnings += said
        batch.resumed = sorted(kept)
        for w in batch.warnings:
            print(w, file=sys.stderr)
        todo = [e for e in entries if e.id not in kept]
        _grade(batch, grader, todo, jobs, Progress(len(todo), enabled=progress), stop)
        batch.results.extend(kept.values())
    finally:
        grader.close()
    batch.seconds = time.monotonic() - start
    return batch


POLL_SECONDS = 0.2
"""How often the batch looks for a stop while it waits for results."""


def _grade(batch: Batch, grader: Grader, todo: list[Entry], jobs: int, bar: Progress,
           stop: interrupt.Stop) -> None:
    """Grade `todo` on `jobs` threads, keeping each result as it comes. On a
    stop: keep the results already finished, take no more submissions, kill
    the running workers (grader.close) and return without waiting for their
    threads: what those give now is the stop's doing, never kept."""
    shown = batch.assignment.config.gradescope.results
    write = lambda r: resume.keep(batch.out, r, shown)  # noqa: E731
    pool = ThreadPoolExecutor(jobs)
    pending = {pool.submit(grade_entry, grader, e) for e in todo}
    try:
        while pending and stop.signum is None:
            done, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                keep(batch, future.result(), write)
                bar.advance()
        if pending:  # stopped: those finished before the workers are killed are graded
            for future in [f for f in pending if f.done() and not f.cancelled()]:
                keep(batch, future.result(), write)
                bar.advance()
            pool.shutdown(wait=False, cancel_futures=True)
            grader.close()
    finally:
        bar.close()
        pool.shutdown(wait=stop.signum is None)


def make_output_folder(out: Path) -> bool:
    """`out`, made closed to other users when this makes it (group members,
    a TA, may read it): workers run as other users. True if it made it."""
    if out.is_dir():
        return False
    out.mkdir(parents=True)
    out.chmod(0o750)
    return True


def keep(batch: Batch, result: SubmissionResult,
         write: Callable[[SubmissionResult], None]) -> None:
    """`result` joins the batch, once `write(result)` has written its files or
    failed to: a failure is said in batch.unwritten and costs nothing else."""
    try:
        write(result)
    except OSError as exc:
        batch.unwritten.append(f"{result.submission}/results.json ({_why(exc)})")
    batch.results.append(result)


def finish(batch: Batch) -> None:
    """Once every submission has its result: grades.csv, the last file of grading
    (the reports are the next stage's: autograder/grade.py)."""
    try:
        write_atomic(batch.out / "grades.csv", results_mod.grades_csv(
            batch.results, batch.assignment.questions, batch.assignment.max_total))
    except OSError as exc:
        batch.unwritten.append(f"grades.csv ({_why(exc)})")


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def grade_entry(grader: Grader, entry: Entry) -> SubmissionResult:
    assignment_id = grader.assignment.id
    result = new_result(entry, assignment_id)
    return grade_submission(grader, result,
                            lambda: read_notebook_bytes(entry, assignment_id, result.notes)[0])


def new_result(entry: Entry, assignment_id: str) -> SubmissionResult:
    """The result before grading: who submitted (the platform's metadata) and
    what finding the entry noted."""
    result = SubmissionResult(entry.id, assignment_id, metadata=entry.metadata,
                              submitter=entry.submitter)
    result.notes.extend(entry.notes)
    return result


def grade_submission(grader: Grader, result: SubmissionResult,
                     read: Callable[[], bytes]) -> SubmissionResult:
    """Grade the notebook `read()` returns into `result`; every failure becomes
    this submission's error and zero points, never an exception. The grader's
    template is used only once `read()` has returned (a notebook that cannot be
    read needs none: the grader may be one never started)."""
    assignment = grader.assignment
    start = time.perf_counter()
    try:
        cells = parse_cells(read())
        result.cells = kept_cells.keep(cells)  # the reports' copy: they never parse again
        foreign.check(cells, assignment.id, result)
        handout.check(cells, assignment.id, result)
        grade_cells(grader, code_cells(cells), result)
    except (SubmissionError, NotebookError) as exc:
        result.error = untrusted.text(exc)  # may quote names from the submission
    except WorkerDied as exc:
        result.error = f"the notebook could not be run ({exc})"
    except Exception as exc:  # the grader's own fault: this submission only, logged
        if grader.closed:  # the batch stopped (interrupted) under it: never kept, not a fault
            result.error = "the batch stopped before this submission was graded"
        else:
            log.exception("grading %s failed", result.submission)
            result.error = f"internal grader error ({type(exc).__name__}); tell your instructor"
    if result.error:
        result.tests = zero_results(assignment, result.error)
        result.notes.insert(0, result.error)
    result.seconds = time.perf_counter() - start
    return result


def zero_results(assignment: assignment_mod.LoadedAssignment, reason: str) -> list[results_mod.TestResult]:
    return [results_mod.TestResult(c.question, c.name, c.title, 0.0, c.points,
                                   f"not graded: {reason}", c.visibility)
            for c in assignment.cases]
