"""Does `python -m autograder bench` run end to end and print its figures?

A smoke test with a tiny batch and no otter: it checks that the figures are
printed, never how fast they are (a benchmark is not a timed test)."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from autograder import paths


@pytest.mark.heavy  # grades batches in subprocesses: the fast tier skips it
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


def test_summary_puts_every_assignment_in_one_table():
    """Does a run of several assignments end with one table of them, the ratio
    taken within each assignment's own figures, and a row for one that failed?"""
    from autograder.bench import Figures, summary
    fast = Figures("hw1_attention", n=4, wall=0.4, seconds=[0.1, 0.2, 0.3, 0.9], agree=4,
                   otter_seconds=[5.0, 4.0, 6.0], peak_pss=500 * 2**20, load=(0.5, 0.7))
    no_otter = Figures("hw2_positions_params", n=2, wall=1.0, seconds=[0.4, 0.6], agree=1,
                       peak_pss=600 * 2**20, load=(1.25, 1.5))
    table = summary([fast, no_otter, Figures("hw3_bert_pretraining")]).splitlines()
    assert table[0].startswith("| assignment | our median | our wall / N | otter median")
    assert table[2] == "| hw1_attention | 0.250 s | 0.100 s | 5.00 s | 20.0x | 500 MB | 0.5 | 4/4 |"
    assert table[3] == "| hw2_positions_params | 0.500 s | 0.500 s | - | - | 600 MB | 1.2 | 1/2 |"
    assert table[4].startswith("| hw3_bert_pretraining | no result")


@pytest.mark.heavy  # grades batches in subprocesses: the fast tier skips it
def test_speed_floors_script_prints_its_three_figures():
    """Does scripts/speed_floors.py (docs/speed.md's floors) still run on the masters'
    code and the hidden tests' draw count, printing one CPU figure per floor?"""
    proc = subprocess.run([sys.executable, "scripts/speed_floors.py", "--repeats", "1"],
                          cwd=paths.ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert len(lines) == 3 and all(re.search(r": \d+\.\d{3} s CPU \(median of 1", line)
                                   for line in lines), proc.stdout
    assert lines[2].startswith("hw6: 8 cases x 2600 draws of sample_next")
