"""Is a worker's disk use counted for all of its files together (kernel/disk.py),
where no file system of its own bounds it?"""
from __future__ import annotations

import os

from autograder.kernel import disk

MB = 2**20


def _write(path, megabytes: int) -> None:
    with open(path, "wb") as f:
        for _ in range(megabytes):
            f.write(b"x" * MB)


def test_every_file_of_the_worker_counts_and_links_are_not_followed(tmp_path):
    """Files below its folder count by their blocks, each entry at least one
    block; a link counts as itself, never as what it points to."""
    own = tmp_path / "own"
    (own / "deep" / "er").mkdir(parents=True)
    _write(own / "deep" / "er" / "a", 3)
    big = tmp_path / "elsewhere"
    _write(big, 20)
    (own / "link").symlink_to(big)
    for i in range(10):
        (own / f"empty{i}").touch()
    used = disk.usage([str(own)], None, 100 * MB)
    assert 3 * MB + 12 * disk.BLOCK <= used < 4 * MB


def test_in_shared_folders_only_the_uids_own_files_count(tmp_path):
    own, shared = tmp_path / "own", tmp_path / "shared"
    own.mkdir()
    (shared / "open").mkdir(parents=True)
    (shared / "open").chmod(0o777)
    _write(shared / "open" / "mine", 2)
    _write(shared / "theirs", 5)
    me = os.getuid()
    assert disk.usage([str(own), str(shared)], me, 100 * MB) >= 7 * MB  # all mine here
    assert disk.usage([str(own), str(shared)], me + 1, 100 * MB) == 0


def test_counting_stops_past_the_limit(tmp_path):
    """Empty files are over a limit of 1 MB once 257 are counted (each entry a
    block), and counting stops there: its cost never depends on how many there are."""
    for i in range(300):
        (tmp_path / f"f{i}").touch()
    assert disk.usage([str(tmp_path)], None, MB) == MB + disk.BLOCK


def test_the_meter_finds_files_past_the_limit_as_they_are_written(tmp_path):
    """Written a megabyte at a time (each costing the file system free space),
    a file is found over a limit of 8 MB (and the slack) before 8 + 3 MB are
    written; a file of exactly the limit, as RLIMIT_FSIZE allows, is not over."""
    meter = disk.Meter([str(tmp_path)], None, 8 * MB)
    assert not meter.over()
    with open(tmp_path / "fill", "wb") as f:
        for written in range(1, 20):
            f.write(b"x" * MB)
            f.flush()
            if meter.over():
                break
    assert 9 < written <= 11
    _write(tmp_path / "fill", 8)
    (tmp_path / "more").write_bytes(b"y" * 1000)
    assert not disk.over([str(tmp_path)], None, 8 * MB)
