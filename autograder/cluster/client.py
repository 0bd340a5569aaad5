"""The client of a cluster run: `grade ... --scheduler ADDRESS [--resume]`.

It finds and reads the submissions exactly as the local path does, sends
each notebook's bytes to a grading host (host.grade), keeps at most
WINDOW_BYTES of notebooks in flight, and writes each result as it arrives
(resume.keep: the full record, then results.json); grades.csv follows
through engine/batch.finish, then the pipeline's report stage
(autograder/grade.py) writes every report, as for a local run.

Faults: Dask grades again, on another worker, every task a dead worker
held, and a future has one result, so each submission is written once. A
notebook whose hosts die again and again (Dask's KilledWorker) gets a zero
result, like any submission that breaks the grader. A lost scheduler or a
broken host stops the run with a ClusterError; what was written stays.
"""
from __future__ import annotations

import contextlib
import itertools
import logging
import sys
import time
import uuid
from pathlib import Path

from distributed import Client, KilledWorker, as_completed
from distributed.client import FutureCancelledError
from distributed.security import Security

from autograder.cluster import ClusterError
from autograder.cluster import bundle as bundle_mod
from autograder.cluster import host as host_mod
from autograder.engine import assignment as assignment_mod
from autograder.engine import batch as batch_mod
from autograder.engine import results, resume
from autograder.engine.grader import Grader
from autograder.engine.intake import untrusted
from autograder.engine.progress import Progress
from autograder.engine.intake.submissions import discover, read_notebook_bytes

WINDOW_BYTES = 256 * 2**20
"""Notebook bytes in flight at once (at least one notebook): memory stays
bounded however large the class, and a cluster of hundreds of cores is
still kept busy by notebooks of ordinary size."""


def grade_folder(assignment_id: str, submissions: Path, out: Path, scheduler: str, *,
                 resume_run: bool = False, progress: bool = True,
                 limits: dict | None = None, reserved: tuple[str, ...] = ()) -> batch_mod.Batch:
    """Grade every entry of `submissions` into `out` on the Dask cluster at
    `scheduler`; with `resume_run`, only those `out` lacks. `reserved`: as for
    a local run (engine/batch.grade_folder). Raises ClusterError."""
    assignment = assignment_mod.load(assignment_id, limits)
    out.mkdir(parents=True, exist_ok=True)
    entries, warnings = discover(submissions, reserved)
    batch = batch_mod.Batch(assignment, out, entries=entries, warnings=warnings,
                            submissions=submissions)
    kept, said = resume.begin(out, assignment, [e.id for e in entries], resume_run)
    batch.warnings += said
    batch.resumed = sorted(kept)
    for w in batch.warnings:
        print(w, file=sys.stderr)
    start = time.monotonic()
    todo = [e for e in entries if e.id not in kept]
    if todo:
        with _session(scheduler) as client:
            run = _Run(client, scheduler, batch, bundle_mod.make(assignment_id, limits),
                       Progress(len(todo), enabled=progress), total=len(entries))
            run.grade(todo)
    batch.results.extend(kept.values())
    batch.seconds = time.monotonic() - start
    batch_mod.finish(batch)
    return batch


@contextlib.contextmanager
def _session(address: str):
    """A client of the scheduler at `address` (TLS as Dask's configuration says)."""
    security = Security()
    if address.startswith("tls://") and not (security.tls_ca_file and security.tls_client_cert):
        raise ClusterError(f"{address} needs the client's TLS files in Dask's configuration "
                           "(distributed.comm.tls.ca-file, tls.client.cert and tls.client.key, "
                           "e.g. DASK_DISTRIBUTED__COMM__TLS__CA_FILE=...); see docs/scaling.md")
    try:
        client = Client(address, set_as_default=False, security=security)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address} ({exc})") from None
    # a lost scheduler is said once, by us, not as Dask's tracebacks of reconnecting
    noisy = [logger for name, logger in logging.root.manager.loggerDict.items()
             if name.split(".")[0] == "distributed" and isinstance(logger, logging.Logger)
             and not logger.disabled]
    for logger in noisy:
        logger.disabled = True
    try:
        yield client
    finally:
        client.close(timeout=5)
        for logger in noisy:
            logger.disabled = False


class _Run:
    """One run's submissions in flight on the cluster."""

    def __init__(self, client: Client, address: str, batch: batch_mod.Batch, bundle: dict,
                 bar: Progress, total: int):
        self.client, self.address, self.batch, self.bar = client, address, batch, bar
        self.total = total  # submissions of the whole run, resumed ones included
        self.lost = False  # the scheduler went away: nothing more to tell it
        self.host = host_mod.GradingHost(bundle, f"autograder-{uuid.uuid4().hex[:16]}")
        self.keys = (f"{self.host.name}-{i}" for i in itertools.count())
        self.inflight: dict = {}  # future -> (the plain result it started from, bytes sent)
        self.inflight_bytes = 0
        self.sandboxes: set[str] = set()
        self.refused: set[str] = set()  # hosts that refused this run, said once each

    def grade(self, todo: list) -> None:
        self._register()
        pending, done = iter(todo), as_completed(loop=self.client.loop)
        try:
            self._fill(pending, done)
            for future in done:
                plain, size = self.inflight.pop(future)
                self.inflight_bytes -= size
                self._record(self._outcome(future, plain))
                self._fill(pending, done)
        finally:
            self.bar.close()
            if not self.lost:
                with contextlib.suppress(OSError, TimeoutError):
                    self._say_refusals()  # of hosts that joined mid-run
                    self.client.unregister_worker_plugin(self.host.name)  # templates stop

    def _register(self) -> None:
        try:
            self.client.register_plugin(self.host)
        except Exception as exc:  # raised on a worker: any type, shown to the instructor
            raise ClusterError(f"the Dask workers could not take the grading host "
                               f"({type(exc).__name__}: {exc}); every worker needs this "
                               "package importable and its requirements (docs/scaling.md)"
                               ) from None
        answers = self.client.run(host_mod.refusal, self.host.name)
        self._say_refusals()
        if answers and all(answers.values()):
            raise ClusterError("every grading host refused this run: " + "; ".join(
                f"{address}: {why}" for address, why in sorted(answers.items())))

    def _say_refusals(self) -> None:
        """Each host that refused this run (other grader code or versions), said once;
        it takes none of the run's submissions, the others grade them."""
        for _, event in self.client.get_events(host_mod.REFUSED):
            if event.get("run") == self.host.name and event.get("host") not in self.refused:
                self.refused.add(event.get("host"))
                print(f"\ngrading host {untrusted.name(str(event.get('host')), 200)} refused "
                      f"this run, the others grade it: {untrusted.name(str(event.get('why')), 500)}",
                      file=sys.stderr)

    def _fill(self, pending, done) -> None:
        """Read and send notebooks until WINDOW_BYTES are in flight."""
        while not self.inflight or self.inflight_bytes < WINDOW_BYTES:
            entry = next(pending, None)
            if entry is None:
                return
            result = batch_mod.new_result(entry, self.batch.assignment.id)
            try:
                notebook = read_notebook_bytes(entry, self.batch.assignment.id, result.notes)[0]
            except Exception as exc:  # graded here, as the local path grades an unreadable entry
                self._record(self._failed(result, exc))
                continue
            plain = results.to_plain(result)
            future = self.client.submit(host_mod.grade, self.host.name, plain, notebook,
                                        key=next(self.keys), pure=False,
                                        resources={self.host.name: 1})  # a host that accepts
            self.inflight[future] = (plain, len(notebook))
            self.inflight_bytes += len(notebook)
            done.add(future)

    def _outcome(self, future, plain: dict) -> results.SubmissionResult:
        try:
            if future.status == "finished":
                answer = future.result()
                self._sandbox(answer["sandbox"])
                result = results.from_plain(answer["result"])
                if result.submission != plain["submission"]:
                    raise ClusterError(f"a grading host answered {result.submission!r} for "
                                       f"{plain['submission']!r}")
                return result
            exc = None if future.status == "cancelled" else future.exception()
        except (FutureCancelledError, OSError, TimeoutError):
            exc = None
        if exc is None:
            self.lost = True
            raise ClusterError(f"lost the Dask scheduler at {self.address}; {self._written()} "
                               "Start the cluster again and rerun with --resume to grade "
                               "the rest.")
        if isinstance(exc, KilledWorker):  # the workers grading it died, again and again
            return self._failed(results.from_plain(plain), exc)
        raise ClusterError(f"a grading host failed ({type(exc).__name__}: {exc}); "
                           f"{self._written()} Fix the host and rerun with --resume.")

    def _failed(self, result, exc: BaseException) -> results.SubmissionResult:
        """The result the local path gives a submission whose grading raised `exc`
        (a grader never started: no worker is needed)."""
        def read() -> bytes:
            raise exc
        return batch_mod.grade_submission(Grader(self.batch.assignment), result, read)

    def _record(self, result: results.SubmissionResult) -> None:
        batch_mod.keep(self.batch, result, lambda r: resume.keep(
            self.batch.out, r, self.batch.assignment.config.gradescope.results))
        self.bar.advance()

    def _sandbox(self, line: str) -> None:
        """Each grading host's `sandbox: ...` line, said once per distinct line."""
        if line not in self.sandboxes:
            print(f"\ngrading host {untrusted.name(line, 500)}", file=sys.stderr)
        self.sandboxes.add(line)

    def _written(self) -> str:
        done = self.total - self.bar.total + self.bar.done
        return (f"{done} of {self.total} submissions are graded and written in "
                f"{self.batch.out}; grades.csv and the reports are written once every "
                f"submission is.")
