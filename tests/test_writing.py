"""Do the files the package writes get the permissions any tool's would (the
umask's), whole or not at all, with the grader's own records kept private?"""
from __future__ import annotations

import os

import pytest

from autograder.writing import PRIVATE, atomic_writer, write_atomic


@pytest.fixture
def umask():
    """Set the process's umask for one test, then put the old one back."""
    old = os.umask(0o022)
    try:
        yield lambda mask: os.umask(mask)
    finally:
        os.umask(old)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_write_atomic_respects_the_umask(tmp_path, umask, mask, mode):
    """0644 under umask 022, 0640 under 027 (a TA in the instructor's group reads it)."""
    umask(mask)
    path = tmp_path / "report.html"
    write_atomic(path, "<p>hi</p>")
    assert path.read_text() == "<p>hi</p>"
    assert path.stat().st_mode & 0o777 == mode
    write_atomic(path, "again")  # replacing a file: the same rule
    assert path.stat().st_mode & 0o777 == mode


def test_a_mode_given_wins_over_the_umask(tmp_path, umask):
    """PRIVATE stays 0600 under umask 022, a zip's 0644 stays 0644 under 077."""
    write_atomic(tmp_path / "record.json", "{}", PRIVATE)
    assert (tmp_path / "record.json").stat().st_mode & 0o777 == 0o600
    umask(0o077)
    with atomic_writer(tmp_path / "a.zip", 0o644) as f:
        f.write(b"PK")
    assert (tmp_path / "a.zip").stat().st_mode & 0o777 == 0o644


def test_a_failed_write_leaves_neither_file_nor_temporary(tmp_path):
    (tmp_path / "kept.csv").write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_writer(tmp_path / "kept.csv") as f:
            f.write(b"half")
            raise RuntimeError("disk gone")
    assert [p.name for p in tmp_path.iterdir()] == ["kept.csv"]
    assert (tmp_path / "kept.csv").read_text() == "old"


def test_the_grader_s_own_records_stay_private(tmp_path, umask):
    """A run's record of each result (hidden tests' notes for the
    instructor) is 0600 whatever the umask; its results.json follows the umask."""
    from autograder.engine import resume
    from autograder.engine.results import SubmissionResult
    resume.keep(tmp_path, SubmissionResult("ada", "hw1_attention"))
    assert (tmp_path / resume.FOLDER / "ada.json").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "ada" / "results.json").stat().st_mode & 0o777 == 0o644
