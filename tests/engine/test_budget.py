"""The grader's own time for a hidden test is bounded (engine/driving/budget.py): a
loop of pure Python inside a test is stopped from outside, the test fails with a
message that says so, and nothing of the stop outlives it."""
from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest

from autograder.engine import config
from autograder.engine.assignment import Case
from autograder.engine.driving import budget, readback, runner


def _spin():
    while True:
        pass


def test_spend_gives_the_work_s_answer_and_stops_an_endless_loop():
    assert budget.spend(1.0, lambda: 41 + 1) == 42
    start = time.perf_counter()
    with pytest.raises(budget.GraderOverrun, match=r"ran out \(budget 0.2 s\)"):
        budget.spend(0.2, _spin)
    assert time.perf_counter() - start < 10
    total = 0  # nothing is left pending for this thread once spend() returned
    for i in range(2_000_000):
        total += i
    assert total == sum(range(2_000_000))


def test_time_spent_waiting_does_not_count():
    """Only the grading thread's CPU counts: a test waiting on the worker is not stopped."""
    budget.spend(0.1, lambda: time.sleep(0.4))


def test_each_grading_thread_spends_its_own_budget():
    stopped = []

    def grade(seconds):
        try:
            budget.spend(seconds, _spin)
        except budget.GraderOverrun as exc:
            stopped.append(exc.seconds)

    threads = [threading.Thread(target=grade, args=(0.1 * (i + 1),)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(stopped) == pytest.approx([0.1, 0.2, 0.3])


def test_an_except_exception_in_the_test_does_not_swallow_the_stop():
    def stubborn():
        while True:
            try:
                _spin()
            except Exception:
                pass

    with pytest.raises(budget.GraderOverrun):
        budget.spend(0.2, stubborn)


class _Collected:
    """A hidden test's stand-in: call() is the test's body."""

    def __init__(self, body):
        self.call = lambda builtins: body(builtins["student"])


def _session(test_seconds: float):
    student = SimpleNamespace(reset=lambda seed: None, observe=lambda observer: None)
    assignment = SimpleNamespace(config=SimpleNamespace(seed=0), reference=None, diagnoses={})
    return SimpleNamespace(student=lambda: student, conn=None, answered=set(),
                           limits=SimpleNamespace(test_seconds=test_seconds),
                           grader=SimpleNamespace(assignment=assignment, profile=False),
                           result=SimpleNamespace(submission="s1"))


def _case(body, seconds=None) -> Case:
    return Case("q", "test_x", "x", 1.0, "visible", _Collected(body), seconds)


def test_a_pure_python_loop_inside_a_hidden_test_is_stopped_and_fails_it():
    """As a walk over a huge answer would be: the case fails with the budget message,
    and the next case runs as usual."""
    session = _session(0.3)
    start = time.perf_counter()
    result = runner.run_case(_case(lambda student: _spin()), session)
    assert time.perf_counter() - start < 10
    assert result.score == 0 and not result.grader_error and not result.stopped
    assert result.output.startswith("the grader's time for this test ran out (budget 0.3 s")
    assert runner.run_case(_case(lambda student: None), session).output == "passed"


def test_a_test_s_own_seconds_override_the_default():
    session = _session(0.1)
    busy = lambda student: sum(range(30_000_000))  # about 1 s of CPU
    assert "budget 0.1 s" in runner.run_case(_case(busy), session).output
    assert runner.run_case(_case(busy, seconds=60.0), session).output == "passed"


def test_seconds_in_a_test_s_entry_is_checked(tmp_path):
    assert config._points(tmp_path, "q", "t", {"points": 1, "seconds": 20}, "visible").seconds == 20
    assert config._points(tmp_path, "q", "t", 1, "visible").seconds is None
    with pytest.raises(config.ConfigError, match="q.t: seconds"):
        config._points(tmp_path, "q", "t", {"points": 1, "seconds": 0}, "visible")
    assert config.Limits().test_seconds == 10.0


def test_readback_counts_values_at_every_depth_and_stops_at_the_limit():
    nested = {"t": "list", "v": [{"t": "list", "v": [1, 2]}, {"t": "dict", "v": [["k", 3]]}]}
    readback.check(nested, 7)  # the outer list, two inner ones, 1, 2, "k", 3
    with pytest.raises(readback.TooLarge, match="more than 6 values"):
        readback.check(nested, 6)
    huge = {"t": "list", "v": [{"t": "list", "v": [1]}] * 1_000_000}
    start = time.perf_counter()
    with pytest.raises(readback.TooLarge):
        readback.check(huge, 100)
    assert time.perf_counter() - start < 1
