"""What an assignment's own modules provide beyond hidden tests, as Protocols.

The registry (autograder/registry.py) says which of these files an assignment
has; the code that uses one checks it against its Protocol when it loads it,
so a module missing a function is an error naming the file, never a feature
silently skipped.

    autograder/<id>/examples.py   an Examples: its demo submissions (build)
    autograder/<id>/reports.py    a BatchReports: reports the report stage
                                  writes for this assignment (an exam's)
"""
from __future__ import annotations

import importlib
from typing import Protocol, TYPE_CHECKING, runtime_checkable

if TYPE_CHECKING:  # annotations only: importing the engine's batch starts torch
    from autograder.engine.batch import Batch


@runtime_checkable
class Examples(Protocol):
    """The demo submissions of examples/<id>/ (build/examples.py)."""

    def variants(self, student, solution) -> dict[str, bytes]:
        """File name (relative, "/" between folders) -> exact bytes, made from
        the built student notebook and the solution notebook (nbformat
        notebooks, not to be modified)."""


@runtime_checkable
class BatchReports(Protocol):
    """Reports of one assignment beyond the common ones, written by the report
    stage (report/run.py) after grades.csv; a failure is reported, never fatal."""

    FILES: tuple[str, ...]
    """The files `write` writes at the top of batch.out, beside the submission
    folders: the report stage declares them with its own, and no submission id
    takes one of these names (engine.intake.submissions.discover)."""

    def write(self, batch: Batch) -> list[str]:
        """Write this assignment's files into batch.out, from the graded
        results (what grading kept of each notebook included: no submission
        is read again); the lines returned are printed under the summary."""

    def class_report_section(self, batch: Batch) -> list[str]:
        """HTML for the class report (report.html); [] for nothing."""


def load(module: str, protocol: type):
    """The module named `module`, checked against `protocol`."""
    loaded = importlib.import_module(module)
    if not isinstance(loaded, protocol):
        raise TypeError(f"{loaded.__file__} must define what {protocol.__name__} names "
                        f"({', '.join(_members(protocol))})")
    return loaded


def _members(protocol: type) -> list[str]:
    data = getattr(protocol, "__annotations__", {})
    return sorted({*data, *(n for n, v in vars(protocol).items()
                            if callable(v) and not n.startswith("_"))})
