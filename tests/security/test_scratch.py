"""Are the worker folders of graders that died removed, and only those?
(autograder/engine/isolation/scratch.py)"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import paths
from autograder.engine.isolation import scratch

HOLD = ("import sys, time; from autograder.engine.isolation import scratch; "
        "s = scratch.Scratch(); print(s.path, flush=True); time.sleep(600)")


def _holder(tmp: Path) -> tuple[subprocess.Popen, Path]:
    """A process that made a worker folder in `tmp` and holds it."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(paths.ROOT)})
    return proc, Path(proc.stdout.readline().strip())


def test_a_live_graders_folder_is_kept_and_a_dead_ones_removed(tmp_path):
    live, kept = _holder(tmp_path)
    dead, gone = _holder(tmp_path)
    try:
        (gone / "w1").mkdir()  # a worker's folder and file inside
        (gone / "w1" / "notes").write_text("left by a worker")
        dead.send_signal(signal.SIGKILL)  # no close(): the folder stays, its lock goes
        dead.wait()
        assert gone.is_dir()
        assert scratch.remove_stale(tmp_path) == [gone]
        assert not gone.exists() and kept.is_dir()
        assert scratch.remove_stale(tmp_path) == []
    finally:
        live.kill()
        live.wait()
        dead.kill()


def test_a_folder_without_its_lock_is_kept(tmp_path):
    """A folder a grader is making has no lock file for an instant; one made by a
    grader from before the lock has none at all, and that grader may still run."""
    (tmp_path / f"{scratch.PREFIX}young").mkdir()
    old = tmp_path / f"{scratch.PREFIX}old"
    old.mkdir()
    os.utime(old, (0, 0))
    assert scratch.remove_stale(tmp_path) == []
    assert old.is_dir()


def _dead(tmp: Path) -> Path:
    """The folder of a grader that was killed."""
    proc, folder = _holder(tmp)
    proc.kill()
    proc.wait()
    return folder


def test_links_other_names_and_other_users_folders_are_left_alone(tmp_path):
    elsewhere = _dead(tmp_path).rename(tmp_path / "autograder-other-x")  # another name
    (tmp_path / f"{scratch.PREFIX}link").symlink_to(elsewhere)  # a link to it
    if os.geteuid() == 0:
        foreign = _dead(tmp_path)
        os.chown(foreign, 7_000_124, 7_000_124)  # another user's (outside every uid pool)
    assert scratch.remove_stale(tmp_path) == []
    assert (elsewhere / scratch.LOCK).is_file()
    assert os.geteuid() != 0 or foreign.is_dir()


def test_a_folder_being_made_is_kept_by_a_grader_starting_then(tmp_path, monkeypatch):
    """Another grader's remove_stale() at the worst instant, just before the new
    folder's lock is taken (its own flock, run first here): the live folder stays.
    CI saw the other order: a template's folder removed as it started."""
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    flock, seen = scratch.fcntl.flock, []

    def racing(fd, operation):
        if not seen:  # the maker's lock, about to be taken (the other's flocks: as they are)
            seen.append(None)
            seen[0] = scratch.remove_stale(tmp_path)
        return flock(fd, operation)
    monkeypatch.setattr(scratch.fcntl, "flock", racing)
    made = scratch.Scratch()
    try:
        assert seen == [[]] and made.path.is_dir() and (made.path / scratch.LOCK).is_file()
        monkeypatch.setattr(scratch.fcntl, "flock", flock)
        assert scratch.remove_stale(tmp_path) == []  # held
    finally:
        made.close()


def test_a_closed_folder_is_gone(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    made = scratch.Scratch()
    assert made.path.parent == tmp_path and oct(made.path.stat().st_mode)[-3:] == "711"
    assert scratch.remove_stale(tmp_path) == []  # held by this process
    made.close()
    assert not made.path.exists()


@pytest.mark.heavy
def test_a_grader_starting_removes_a_dead_graders_folder(tmp_path, monkeypatch, grade_notebooks):
    """The template removes them as it starts (engine/isolation/workers.py)."""
    gone = _dead(tmp_path)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    results = grade_notebooks("hw1_attention", {"s1": ["x = 1"]})
    assert results["s1"].score == 0  # graded: its stubs are missing
    assert not gone.exists()
    assert not list(tmp_path.glob(f"{scratch.PREFIX}*"))  # and its own, once it closed
