"""--due without an offset is read in this machine's time zone: does grade say
which date and zone it used, and warn when the submission times carry offsets?"""
from __future__ import annotations

import time

import pytest

from autograder.engine import assignment as assignment_mod
from autograder.engine.batch import Batch
from autograder.report import run as report_run
from tests.report.test_canvas import ID, result


@pytest.fixture
def berlin(monkeypatch):
    """This machine's time zone, for the test: Europe/Berlin (UTC+01:00 in March)."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _lines(tmp_path, due: str, gradescope: bool) -> list[str]:
    ada = result("ada")
    if gradescope:
        ada.metadata = {"created_at": "2026-03-01T23:30:00-05:00", "assignment": {"due_date": None}}
    batch = Batch(assignment_mod.load(ID), tmp_path, results=[ada], submissions=tmp_path)
    return report_run.write_all(batch, report_run.prepare(tmp_path, due=due))


def test_due_without_offset_is_said_and_warned(tmp_path, berlin):
    lines = _lines(tmp_path, "2026-03-01T23:59", gradescope=True)
    assert ("due date: 2026-03-01 23:59 CET (UTC+0100) (no offset given: this machine's time "
            "zone), from --due '2026-03-01T23:59'") in lines
    warning, = [line for line in lines if line.startswith("warning: the submission times")]
    assert "--due 2026-03-01T23:59-05:00" in warning
    assert any(line.startswith("late: 1 submissions") for line in lines)  # 23:30 New York


def test_due_with_offset_is_said_without_warning(tmp_path, berlin):
    lines = _lines(tmp_path, "2026-03-01T23:59-05:00", gradescope=True)
    assert "due date: 2026-03-01 23:59 UTC-05:00 (UTC-0500), from --due '2026-03-01T23:59-05:00'" \
        in lines
    assert not [line for line in lines if "submission times carry" in line]
    assert not [line for line in lines if line.startswith("late:")]


def test_no_warning_when_the_times_carry_no_offset(tmp_path, berlin):
    """A folder of notebooks: only file times, this machine's own; no warning."""
    lines = _lines(tmp_path, "2026-03-01T23:59", gradescope=False)
    assert any(line.startswith("due date: 2026-03-01 23:59 CET") for line in lines)
    assert not [line for line in lines if "submission times carry" in line]
