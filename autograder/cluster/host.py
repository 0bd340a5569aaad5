"""The grading host: what runs inside each Dask worker process.

A GradingHost is registered once per run by the client (a Dask worker plugin,
so a worker that joins or is restarted mid-run gets it too). On the first
submission a worker receives, it installs the shipped assignment in a
private folder and starts its grader (engine/grader.Grader: both once per
process, kept until the run unregisters the plugin); `grade` then grades one submission with
the local path's engine/batch.grade_submission, in the worker's own threads
(`dask worker --nthreads N`: N submissions at once, each in its own
sandboxed process).

What must stay true: the notebook arrives as bytes and is only ever parsed
by the notebook reader; the answer is plain data (results.to_plain). A
failure to load the assignment or start the template is the host's and is
raised (the client stops the run); everything a submission causes is that
submission's result.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from distributed import WorkerPlugin, get_worker

from autograder.engine.isolation import scratch

if TYPE_CHECKING:
    from autograder.engine.grader import Grader
# The engine (and with it torch) is imported when a host first grades, not with this
# module: the scheduler imports it too, to read the task graph, and needs neither.

FOLDER_PREFIX = "autograder-host-"
"""A host's private folder in the temporary folder (the installed assignment)."""
REFUSED = "autograder-refused"
"""The Dask event topic on which a host says why it refused a run."""


class GradingHost(WorkerPlugin):
    """One run's assignment on one Dask worker process.

    A host that accepts the run (its grader code and library versions are the
    client's) offers the Dask resource named after the run, one unit per thread, and
    the client's tasks ask for one unit: a host that refuses is never given one, and
    a host that joins mid-run takes its share as soon as it accepts."""

    def __init__(self, bundle: dict, name: str):
        self.bundle = bundle
        self.name = name
        """Unique per run: two runs on one cluster never share a template."""
        self.refused: str | None = None

    def setup(self, worker):
        from autograder.cluster import bundle as bundle_mod
        self._lock = threading.Lock()
        self._folder: scratch.Scratch | None = None
        self._grader: Grader | None = None
        # the folders of hosts killed before their teardown (a lost worker), removed as
        # soon as a host starts again on that machine, not at its first submission: a
        # live host holds a lock on its own (engine/isolation/scratch.py)
        scratch.remove_stale(prefix=FOLDER_PREFIX)
        self.refused = bundle_mod.mismatch(self.bundle)
        if self.refused:
            worker.log_event(REFUSED, {"run": self.name, "host": worker.address,
                                       "why": self.refused})
            return None
        return worker.set_resources(**{self.name: worker.state.nthreads})

    def grader(self) -> Grader:
        """The shipped assignment's grader, installed and started on first use."""
        with self._lock:
            if self._grader is None:
                from autograder.cluster import bundle as bundle_mod
                from autograder.engine.grader import Grader
                self._folder = scratch.Scratch(prefix=FOLDER_PREFIX, mode=0o700)
                assignment = bundle_mod.install(self.bundle, self._folder.path)
                self._grader = Grader(assignment, [self._folder.path]).start()
            return self._grader

    def teardown(self, worker) -> None:
        # the run's resource stays offered: no task of the run is left to ask for it, and
        # a worker closing because its scheduler is gone could not tell a scheduler so
        with self._lock:
            if self._grader is not None:
                self._grader.close()
                self._grader = None
            if self._folder is not None:
                self._folder.close()
                self._folder = None


def refusal(name: str, dask_worker=None) -> str | None:
    """Why this host refused the run `name` (client.run calls it on every host), or None."""
    plugin = dask_worker.plugins.get(name)
    return plugin.refused if plugin is not None else None


def grade(host_name: str, plain: dict, notebook: bytes) -> dict:
    """The Dask task: grade one submission's notebook bytes on this host.

    `plain` is the result the client started (id, metadata, notes). Returns
    {"result": the graded result as plain data, "sandbox": this host's sandbox line}."""
    from autograder.engine import batch, results
    host: GradingHost = get_worker().plugins[host_name]
    grader = host.grader()
    result = batch.grade_submission(grader, results.from_plain(plain), lambda: notebook)
    return {"result": results.to_plain(result),
            "sandbox": grader.line()}
