"""Does `python -m autograder bench` run end to end and print its figures?

A smoke test with a tiny batch and no otter: it checks that the figures are
printed, never how fast they are (a benchmark is not a timed test)."""
from __future__ import annotations

import re
import subprocess
import sys

from autograder import paths


def test_bench_prints_figures_for_hw1():
    """Does a 3-submission bench of hw1 (--skip-otter --profile) print medians, memory
    and the profile?"""
    proc = subprocess.run(
        [sys.executable, "-m", "autograder", "bench", "--assignment", "hw1_attention",
         "-n", "3", "--skip-otter", "--profile"],
        cwd=paths.ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "hw1_attention: 3 generated submissions" in out
    assert re.search(r"median per submission \(SubmissionResult\.seconds\): \d+\.\d+ s", out)
    assert re.search(r"batch wall / N: \d+\.\d+ s", out)
    assert re.search(r"PSS \d+ MB, RSS summed \d+ MB", out)
    assert "scores match the planted mistakes: 3/3 (on the 3 questions with a stub cell)" in out
    assert "otter  median" not in out  # skipped
    assert re.search(r"worker start \(fork, confinement\) +\d+\.\d+ s", out)
    assert re.search(r"cell +\d+ +\d+\.\d+ s  \S", out)  # at least one cell of 2 ms or more
    for test in ("causal_mask::test_values", "TinySelfAttn::test_parameters"):
        assert re.search(rf"{test} +(\d+\.\d+ +){{3}}\d+ +\d+  \d passed", out), test


def test_profile_report_takes_medians():
    """Does the profile report each cell's and each test's median, labelled?"""
    from autograder.bench_profile import report
    from autograder.engine.results import SubmissionResult, TestResult

    def result(cell_seconds, test_seconds, requests):
        r = SubmissionResult("s", "a", profile={"starts": [0.03],
                                                "cells": [[1, 0.001], [2, cell_seconds]]})
        t = TestResult("q", "test_x", "x", 1.0, 1.0, "passed", "visible", seconds=test_seconds,
                       profile={"ready": 0.0, "requests": requests, "callbacks": 0,
                                "seconds": test_seconds / 2, "callback_seconds": 0.0})
        r.tests.append(t)
        return r
    out = report([result(0.1, 0.2, 3), result(0.3, 0.4, 5), result(0.5, 0.6, 7)],
                 ["import numpy", "# a demo\nx = big_demo()"])
    assert "cell   2   0.300 s  x = big_demo()" in out
    assert "the other 1 cells together 0.001 s" in out
    assert re.search(r"q::test_x +0\.400 +0\.200 +0\.200 +5 +0  3 passed", out)


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
