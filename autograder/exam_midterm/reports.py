"""The midterm's own reports (a hooks.BatchReports, run by the report stage):
free responses for manual grading, difficulty per variant, identity flags."""
from __future__ import annotations

from autograder.exam import reports
from autograder.exam_midterm import reference

FILES = reports.FILES


def write(batch) -> list[str]:
    return reports.write(batch, reference)


def class_report_section(batch) -> list[str]:
    return reports.class_report_section(batch)
