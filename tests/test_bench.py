"""Does `python -m autograder bench` run end to end and print its figures?

A smoke test with a tiny batch and no otter: it checks that the figures are
printed, never how fast they are (a benchmark is not a timed test)."""
from __future__ import annotations

import re
import subprocess
import sys

from autograder import paths


def test_bench_prints_figures_for_hw1():
    """Does a 3-submission bench of hw1 (--skip-otter) print medians and memory?"""
    proc = subprocess.run(
        [sys.executable, "-m", "autograder", "bench", "--assignment", "hw1_attention",
         "-n", "3", "--skip-otter"],
        cwd=paths.ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "hw1_attention: 3 generated submissions" in out
    assert re.search(r"median per submission \(SubmissionResult\.seconds\): \d+\.\d+ s", out)
    assert re.search(r"batch wall / N: \d+\.\d+ s", out)
    assert re.search(r"PSS \d+ MB, RSS summed \d+ MB", out)
    assert "scores match the planted mistakes: 3/3 (on the 3 questions with a stub cell)" in out
    assert "otter" not in out  # skipped


def test_generated_submissions_are_deterministic(tmp_path):
    """Does the same seed plant the same mistakes in the same notebooks?"""
    from autograder import bench
    from autograder.engine import config
    dist = bench.otter_assign("hw1_attention", tmp_path / "work")
    questions = config.load("hw1_attention").questions
    first = bench.make_submissions(dist, "hw1_attention", questions, 6, 7, tmp_path / "a")
    second = bench.make_submissions(dist, "hw1_attention", questions, 6, 7, tmp_path / "b")
    assert [p.mistakes for p in first] == [p.mistakes for p in second]
    assert any(p.mistakes for p in first) and any(len(p.mistakes) < len(questions)
                                                  for p in first)
    for p in first:
        assert (tmp_path / "a" / f"{p.id}.ipynb").read_bytes() == \
            (tmp_path / "b" / f"{p.id}.ipynb").read_bytes()
