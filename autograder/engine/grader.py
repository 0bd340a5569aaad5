"""The grader: one assignment, the sandbox its notebooks run in, and what
every submission is graded with. Each driver (a local batch and the
Gradescope run through it, a Dask grading host, the pytest plugin) makes one
and hands it to the engine (engine/batch.grade_submission, the runner)
instead of its parts.

    with Grader(assignment, hide=[submissions, out]) as grader:
        batch.grade_submission(grader, result, read)

What must stay true: start() is the only place where the grader's own
numerics are held to one thread (engine/numerics.py) and the sandbox chosen
(engine/isolation/workers.Template): before any notebook runs, and once per
grader. close() stops every worker the template forked, started or not,
as often as it is called; a worker asked of a closed grader is WorkerDied
(the batch is stopping: an interrupted batch's threads end as after any
dead worker), of one never started NotStarted.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from autograder import paths
from autograder.engine.assignment import LoadedAssignment
from autograder.engine.config import Limits
from autograder.engine.isolation.workers import Template, WorkerDied
from autograder.engine.numerics import one_thread_for_references


class NotStarted(RuntimeError):
    """A worker was asked of a grader whose template is not running."""


class Grader:
    """One assignment's grading, from start() to close().

    `hide`: paths the workers must never see, beside the grader's own secrets
    (paths.secret_paths()): the submissions, the output, a host's folder.
    `workers_at_once`: how many workers may run together (the memory each may
    have is fitted to it where the machine has a limit). `profile`: measure
    where each submission's time goes (runner.NotebookSession; `bench
    --profile`). A grader that is never started grades only what needs no
    worker: a notebook that cannot be read is still given its zero result."""

    def __init__(self, assignment: LoadedAssignment, hide: Sequence[Path] = (), *,
                 allow_unsafe: bool = False, workers_at_once: int = 1, profile: bool = False):
        self.assignment = assignment
        self.profile = profile
        self._hide = list(hide)
        self._allow_unsafe = allow_unsafe
        self._workers_at_once = workers_at_once
        self._template: Template | None = None
        self._closed = False

    @property
    def limits(self) -> Limits:
        """The assignment's limits, as each submission is held to them."""
        return self.assignment.config.limits

    @property
    def template(self) -> Template:
        """The running template that forks each submission's worker."""
        if self._closed:  # an interrupted batch's threads: their workers are gone too
            raise WorkerDied("the batch is stopping")
        if self._template is None:
            raise NotStarted(f"the grader of {self.assignment.id} is not started")
        return self._template

    def start(self) -> "Grader":
        """Choose the sandbox and start the template; raises SandboxUnavailable
        (nothing left running) where no sandbox works and allow_unsafe is False."""
        if self._template is not None:
            raise RuntimeError(f"the grader of {self.assignment.id} is started already")
        one_thread_for_references()
        self._template = Template(self.assignment.config, paths.secret_paths() + self._hide,
                                  allow_unsafe=self._allow_unsafe,
                                  workers_at_once=self._workers_at_once)
        return self

    def line(self) -> str:
        """The sandbox's one line, with the limits workers really get."""
        return self.template.line()

    @property
    def closed(self) -> bool:
        """close() was called: what still runs is being stopped (an interrupted
        batch), and its failures are the stop's, not the submission's."""
        return self._closed

    def close(self) -> None:
        self._closed = True
        if self._template is not None:
            template, self._template = self._template, None
            template.close()

    def __enter__(self) -> "Grader":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()
