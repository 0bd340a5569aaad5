"""The midterm's own reports (a hooks.BatchReports, run by the report stage):
free responses for manual grading, difficulty per variant, identity flags."""
from __future__ import annotations

from typing import TYPE_CHECKING

from autograder.exam import reports
from autograder.exam_midterm import reference

if TYPE_CHECKING:  # annotations only: importing the engine's batch starts torch
    from autograder.engine.batch import Batch

FILES = reports.FILES


def write(batch: Batch) -> list[str]:
    return reports.write(batch, reference)


def class_report_section(batch: Batch) -> list[str]:
    return reports.class_report_section(batch)
