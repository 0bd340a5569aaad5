"""Does scripts/bench_compare.py read the figures `bench` prints, and show what moved?

The text is written by bench's own report functions (a change of their format
fails here, not silently in the tool), from made-up figures."""
from __future__ import annotations

import importlib.util
from types import SimpleNamespace as NS

from autograder import bench, bench_profile, paths

spec = importlib.util.spec_from_file_location("bench_compare",
                                              paths.ROOT / "scripts" / "bench_compare.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def _text(wall: float, grader_cpu: dict[str, float]) -> str:
    """A bench block of two submissions, their tests taking `grader_cpu` each."""
    def result():
        tests = [NS(question=name.split("::")[0], name=name.split("::")[1], status="passed",
                    profile={"wall": 0.02, "seconds": 0.01, "callback_seconds": 0.0,
                             "worker_cpu": 0.004, "grader_cpu": cpu, "requests": 3,
                             "callbacks": 0})
                 for name, cpu in grader_cpu.items()]
        return NS(tests=tests, profile={"cells": [(0, {"wall": 0.1, "worker_cpu": 0.05,
                                                        "grader_cpu": 0.001})]})
    figures = bench.Figures("hw1_attention", n=2, jobs=2, wall=wall, seconds=[0.5, 0.7],
                            profile=bench_profile.report([result(), result()], ["import torch"]))
    return bench.report(figures)


def test_the_figures_of_a_bench_block_are_read():
    found = tool.parse(_text(1.0, {"causal_mask::test_values": 0.010,
                                   "TinySelfAttn::test_matches": 0.030}))
    assert found["wall / N"] == 0.5 and found["median per submission"] == 0.6
    assert found["worker CPU"] == 0.058 and found["grading-thread CPU"] == 0.041
    assert found["tests"] == {"causal_mask::test_values": (0.02, 0.01),
                              "TinySelfAttn::test_matches": (0.02, 0.03)}


def test_what_moved_is_shown_with_its_ratio_and_nothing_else():
    old = [tool.parse(_text(1.0, {"a::test_same": 0.010, "b::test_slower": 0.010}))]
    new = [tool.parse(_text(1.2, {"a::test_same": 0.010, "b::test_slower": 0.030}))]
    shown = tool.compare("hw1_attention", old, new)
    assert "wall / N                 0.500 -> 0.600 s (1.20x)" in shown
    assert "b::test_slower" in shown and "0.010 -> 0.030 s (3.00x)" in shown
    assert "a::test_same" not in shown and "moved by more than 10% and 1 ms: 1" in shown
