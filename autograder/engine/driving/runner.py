"""Grading one submission: run its notebook in a worker, then every hidden
test against it, in the trusted process.

A worker that hangs or dies is restarted (up to limits.restarts times) with
the cells that hung left out, so that one runaway question does not cost
the others their points.
"""
from __future__ import annotations

import logging
import re
import time
import traceback
from pathlib import Path

from autograder import protocol
from autograder.engine.diagnoses import evidence
from autograder.engine.diagnoses.record import record_for
from autograder.engine.diagnoses.recorder import Recorder
from autograder.engine.diagnoses.verdicts import VERDICTS
from autograder.engine.driving import budget
from autograder.engine.driving.fail import Fail
from autograder.engine.intake import untrusted
from autograder.engine.assignment import Case
from autograder.engine.driving.meter import Meter
from autograder.engine.intake.notebook import Cells
from autograder.engine.driving.sent_ahead import pipelined
from autograder.engine.results import SubmissionResult, TestResult
from autograder.engine.driving.student import Student, StudentError, StudentTimeout
from autograder.engine.grader import Grader
from autograder.engine.isolation.workers import WorkerConnection, WorkerDied, WorkerTimeout

log = logging.getLogger(__name__)
WITHHELD = ("this test could not run because of a problem in the grader, not in your answer; "
            "its points are withheld until your instructor fixes the test and grades again")
CELL_LINE = re.compile(r'File "<cell \d{1,6}>", line (\d{1,6})')


class NotebookSession:
    """The student's notebook, run in a worker of `grader`, restarted when it
    goes down. With grader.profile, where its time goes is measured into
    result.profile and each test's TestResult.profile (engine/driving/meter.py;
    for `bench --profile`: about 30 us of the grading thread per cell and test,
    otherwise not spent)."""

    def __init__(self, grader: Grader, cells: Cells, result: SubmissionResult):
        self.grader = grader
        self.cells = cells
        self.limits = grader.limits
        self.result = result
        self.skip: set[int] = set()  # cells that hung or killed the worker
        self.restarts_left = self.limits.restarts
        self.conn: WorkerConnection | None = None
        self.first_run = True
        self.reported: set[int] = set()  # cells whose output and error are in the result
        self.answered: set[str] = set()  # questions whose stub answered a recorded call

    def student(self) -> Student | None:
        if self.conn is not None and not self.conn.dead:
            return Student(self.conn, self.limits.call_seconds)
        if not self.first_run:
            if self.restarts_left <= 0:
                return None
            self.restarts_left -= 1
        self.spawn()
        self.first_run = False
        return None if self.conn.dead else Student(self.conn, self.limits.call_seconds)

    def spawn(self) -> None:
        """A new worker, with the notebook's cells run in it."""
        start = time.perf_counter()
        self.conn = self.grader.template.spawn()
        if self.grader.profile:
            self.result.profile.setdefault("starts", []).append(time.perf_counter() - start)
        self.run_notebook()

    def run_notebook(self) -> None:
        """The cells not skipped, sent ahead of their replies (engine/driving/sent_ahead.py);
        the cell whose reply is late or missing is left out and the worker restarted."""
        cells = [(index, source) for index, source in enumerate(self.cells.code, 1)
                 if index not in self.skip and source.strip()]
        replies = pipelined(self.conn, ({"op": protocol.RUN_CELL, "index": index, "source": source}
                                        for index, source in cells),
                            timeout=self.limits.notebook_seconds, max_reply=0)  # text only
        meter = Meter(self.conn) if self.grader.profile else None
        for index, _ in cells:
            try:
                reply, buffers = next(replies)
                if meter is not None:
                    self.result.profile.setdefault("cells", []).append([index, meter.lap()])
                output, error = _cell_report(reply, buffers)
            except (WorkerTimeout, WorkerDied) as exc:
                self.conn.kill()
                self.skip.add(index)
                self._note(f"{self.cells.label(index)} " + (
                    f"was stopped: the notebook's cells may run {self.limits.notebook_seconds:g} s in all"
                    if isinstance(exc, WorkerTimeout) else "ended the notebook's process"
                    + self.conn.why_stopped())
                    + "; it is left out and grading goes on without it")
                if self.restarts_left > 0:
                    self.restarts_left -= 1
                    self.spawn()
                return
            if index not in self.reported:  # a re-run after a hang reports nothing twice
                self.reported.add(index)
                self.result.notebook_output = (self.result.notebook_output
                                               + output)[-untrusted.OUTPUT_CHARS:]
                if error:
                    self._note(f"{self.cells.label(index)} raised {self.cells.renumbered(error)}")

    def _note(self, text: str) -> None:
        self.result.note(text)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.kill()


def _cell_report(reply: dict, buffers) -> tuple[str, str]:
    """A cell's printed output and its error ("Type: message", "" when none),
    cleaned: both are the student's text. Anything but a cell report is a
    malformed reply: WorkerDied (the caller kills the worker)."""
    try:
        report = protocol.unpack(reply["ok"], buffers, _no_handle)
    except (KeyError, protocol.ProtocolError):
        report = None
    if not (isinstance(report, dict) and isinstance(report.get("output"), str)
            and (report.get("error") is None or isinstance(report["error"], dict))):
        raise WorkerDied("malformed cell report")
    output = untrusted.text(report["output"], untrusted.OUTPUT_CHARS)
    err = report["error"]
    if err is None:
        return output, ""
    message = untrusted.text(err.get("message"), 300) or _where(err.get("traceback"))
    return output, f"{untrusted.name(err.get('type'))}: {message}"


def _where(traceback) -> str:
    """For an error without a message (a bare assert): the line of the cell it came from."""
    lines = CELL_LINE.findall(traceback) if isinstance(traceback, str) else []
    return f"(no message) at line {lines[-1]} of the cell" if lines else "(no message)"


def _no_handle(handle):
    raise protocol.ProtocolError("a cell report holds no objects")


def call_case(case: Case, session: NotebookSession, started=None, record=None) -> None:
    """Run one test against the session's notebook, seeded, with the grader's
    fixtures; raises as the test raises (the pytest plugin shows it as is,
    run_case scores it). `started(conn)` is called once the worker is up;
    `record` (a diagnoses.record.Calls) keeps the calls of the question's stub. The test's
    own time in the grader is bounded (budget_of): past it, budget.GraderOverrun."""
    student = session.student()
    if student is None:
        raise WorkerDied("the notebook's process could not be (re)started")
    if record is not None:
        student.observe(Recorder(record))
    if started is not None:
        started(session.conn)
    assignment = session.grader.assignment
    student.reset(assignment.config.seed)
    budget.spend(budget_of(case, session), lambda: case.call(
        {"student": student, "ref": assignment.reference, "submission": session.result}))


def budget_of(case: Case, session: NotebookSession) -> float:
    """The grader's CPU seconds `case` may spend: its own [tests] `seconds`, else
    limits.test_seconds."""
    return case.seconds if case.seconds is not None else session.limits.test_seconds


TIME_LIMIT, CRASHED = "time limit", "crashed"
"""TestResult.stopped: how a test stopped the student's process."""


def stopped_by(exc: BaseException) -> str:
    """How the exception a test raised stopped the student's process ("" if it did not)."""
    return TIME_LIMIT if isinstance(exc, StudentTimeout) else (
        CRASHED if isinstance(exc, WorkerDied) else "")


class Stalled:
    """The questions whose remaining tests are not run, and why: a test of
    theirs stopped the student's process (a hang or a crash), so that one
    runaway question does not cost the others the restarts they need. The
    grader's rule, for grade_cells and the pytest plugin alike."""

    def __init__(self):
        self.why: dict[str, str] = {}

    def skipped(self, case: Case) -> str:
        """The output of `case` when it is not run ("" when it is)."""
        why = self.why.get(case.question)
        return f"not run: {why}" if why else ""

    def record(self, case: Case, stopped: str) -> None:
        """`case` ended with TestResult.stopped `stopped` ("" when it did not stop)."""
        if stopped and case.question not in self.why:
            self.why[case.question] = "an earlier test of this question " + (
                "timed out" if stopped == TIME_LIMIT else "stopped the notebook's process")


def run_case(case: Case, session: NotebookSession) -> TestResult:
    result = TestResult(case.question, case.name, case.title, 0.0, case.points, "",
                        case.visibility)
    start = time.perf_counter()
    meters: list[Meter] = []
    assignment = session.grader.assignment
    candidates = assignment.diagnoses.get(case.question, ())
    record = record_for(case.question, candidates) if candidates else None
    if record is not None:  # what earlier tests saw: evidence the stub is no stand-in
        record.answered_before = case.question in session.answered
    explain = lambda: _diagnosis(candidates, record, getattr(assignment.reference, case.question),
                                 budget_of(case, session))
    try:
        # the test alone is measured: the worker's start and notebook are done
        call_case(case, session,
                  (lambda conn: meters.append(Meter(conn))) if session.grader.profile else None,
                  record)
        result.score, result.output = case.points, "passed"
    except Fail as exc:
        result.output = str(exc)
        result.diagnosis = explain() if record else ""
    except StudentError as exc:
        result.output = (f"{exc.call} raised {exc.type_name}: {exc.message}"
                         if exc.type_name != "NameError" else exc.message)
        result.diagnosis = explain() if record else ""
    except budget.GraderOverrun as exc:
        result.output = budget.overrun_message(exc.seconds)
    except StudentTimeout as exc:
        result.output, result.stopped = f"timed out: {exc}", stopped_by(exc)
    except WorkerDied as exc:
        result.output, result.stopped = f"not checked: {exc}", stopped_by(exc)
    except AssertionError as exc:
        result.output = str(exc) or "a check on your answer failed"
        result.diagnosis = explain() if record else ""
    except Exception as exc:  # the test broke on its own side: the grader's error, not the answer's
        log.warning("%s %s: %s", session.result.submission, case.id, exc, exc_info=True)
        result.grader_error = type(exc).__name__
        result.grader_detail = grader_detail(exc, getattr(case.collected.func, "__code__", None))
        result.output = WITHHELD
    result.seconds = time.perf_counter() - start
    if record is not None and record.answered:
        session.answered.add(case.question)
    if meters:
        result.profile = meters[0].read()
    return result


def grader_detail(exc: BaseException, code) -> str:
    """`exc` as the test's author reads it: its type and message, and the line of the
    test's own file (`code`: the test function's) where it came from, else the last."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if code is not None and f.filename == code.co_filename]
    at = (own or frames)[-1:]
    where = "".join(f" ({Path(f.filename).name}, line {f.lineno}: {f.line})" for f in at)
    # the message may quote an answer (a key, a type's name): cleaned as the student's text
    return f"{type(exc).__name__}: {untrusted.text(str(exc), 300)}{where[:300]}"


def _diagnosis(candidates, record, reference, seconds: float) -> str:
    """evidence.diagnose on a budget of grader time of its own (replays, driven
    models and signs): one that runs out is not given. An earlier submission's
    identical record gives its diagnosis at once (verdicts.py)."""
    diagnose = lambda: evidence.diagnose(candidates, record, reference)
    try:
        return budget.spend(seconds, lambda: VERDICTS.diagnosis(candidates, record, reference,
                                                                diagnose))
    except budget.GraderOverrun:
        log.info("diagnosis of %s not given: its budget of %g s ran out", record.name, seconds)
        return ""


def open_session(grader: Grader, cells: Cells, result: SubmissionResult) -> NotebookSession:
    """The notebook's session (its worker starts at the first test's call),
    with what reading its cells noted."""
    for note in cells.notes:
        result.note(note)
    return NotebookSession(grader, cells, result)


def grade_cells(grader: Grader, cells: Cells, result: SubmissionResult) -> None:
    session = open_session(grader, cells, result)
    stalled = Stalled()
    try:
        for case in grader.assignment.cases:
            skipped = stalled.skipped(case)
            if skipped:
                result.tests.append(TestResult(case.question, case.name, case.title, 0.0,
                                               case.points, skipped, case.visibility))
                continue
            outcome = run_case(case, session)
            result.tests.append(outcome)
            stalled.record(case, outcome.stopped)
    finally:
        session.close()
