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
    assert re.search(r"worker start \(fork, confinement\) +\d+\.\d+ s wall", out)
    assert re.search(r"cell +\d+ +\d+\.\d+ s wall +\d+\.\d+ s CPU  \S", out)
    for test in ("causal_mask::test_values", "TinySelfAttn::test_parameters"):
        assert re.search(rf"{test} +(\d+\.\d+ +){{4}}\d+ +\d+  \d passed", out), test
    assert re.search(r"CPU per submission: worker \d+\.\d+ s, grading thread \d+\.\d+ s", out)


def test_profile_report_takes_medians():
    """Does the profile report each cell's and each test's medians, labelled?"""
    from autograder.bench_profile import report
    from autograder.engine.results import SubmissionResult, TestResult

    def result(x, requests):
        figures = {"wall": x, "grader_cpu": x / 4, "worker_cpu": x / 2, "requests": requests,
                   "callbacks": 1, "seconds": x / 2, "callback_seconds": x / 8}
        r = SubmissionResult("s", "a", profile={"starts": [0.03], "cells": [
            [1, {"wall": 0.001, "grader_cpu": 0.0}], [2, figures]]})
        r.tests.append(TestResult("q", "test_x", "x", 1.0, 1.0, "passed", "visible",
                                  seconds=x, profile=figures))
        return r
    out = report([result(0.1, 3), result(0.4, 5), result(0.8, 7)],
                 ["import numpy", "# a demo\nx = big_demo()"])
    assert "cell   2  0.400 s wall  0.200 s CPU  x = big_demo()" in out
    assert "the other 1 cells together 0.001 s wall" in out
    assert re.search(r"q::test_x +0\.400 +0\.150 +0\.200 +0\.100 +5 +1  3 passed", out)
    assert "worker 0.400 s, grading thread 0.200 s" in out  # cell 2 and the test, together


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
