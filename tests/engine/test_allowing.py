"""Student.allowing(seconds): a test may give one call more time than the
configured call_seconds (a large answer asked on purpose), never less and never
more than MAX_CALL_SECONDS; other calls keep the configured limit."""
from __future__ import annotations

import pytest

from autograder.engine.driving.student import Student, StudentTimeout
from tests.engine.workers_at_hand import template_of, worker_that_ran

STUDENT_CODE = '''
import time
def slow(seconds):
    time.sleep(seconds)
    return seconds
'''
LIMIT = 0.5  # the configured limit of these tests' calls; slow(1.5) takes three times it


@pytest.fixture(scope="module")
def template():
    with template_of("hw1_attention") as template:
        yield template


@pytest.fixture
def student(template):
    with worker_that_ran(template, STUDENT_CODE) as conn:
        yield Student(conn, call_seconds=LIMIT)


def test_a_slow_call_times_out_at_the_configured_limit(student):
    """Without allowing(), does a call longer than call_seconds time out?"""
    with pytest.raises(StudentTimeout):
        student.slow(1.5)


def test_allowing_lets_one_slow_call_answer(student):
    """Does allowing(30) let a call three times the configured limit answer, and
    leave the student's own limit as it was?"""
    assert student.allowing(30).slow(1.5) == 1.5
    assert student._call_seconds == LIMIT
    assert student.allowing(30).at_most(1024)._call_seconds == 30
    assert student.at_most(1024).allowing(30).repeat(2)._call_seconds == 30


def test_allowing_never_shortens_the_limit(student):
    """Is allowing(0.1) the configured limit still (a test cannot make calls stricter)?"""
    assert student.allowing(0.1)._call_seconds == LIMIT


@pytest.mark.parametrize("bad", [0, -1, True, "30", None, Student.MAX_CALL_SECONDS + 1])
def test_allowing_refuses_a_bad_time(student, bad):
    """Is a time that is not a number in (0, MAX_CALL_SECONDS] refused?"""
    with pytest.raises(ValueError):
        student.allowing(bad)
