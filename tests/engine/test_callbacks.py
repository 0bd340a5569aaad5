"""Do functions the grader lends a worker work during their test, and only then?"""
from __future__ import annotations

import pytest
import torch

from autograder.engine.config import load
from autograder.engine.driving.runner import _cell_report
from autograder.engine.driving.student import Student, StudentError
from autograder.engine.isolation.processes import alive
from autograder.engine.isolation.workers import Template, WorkerDied
from tests.engine.workers_at_hand import template_of, worker_that_ran

STUDENT_CODE = '''
import torch
def twice_through_grader(x):
    return double(x) + double(x)
def call_with(value):
    return double(value)
def keep_calling(n):
    return [double(i) for i in range(n)]
'''


@pytest.fixture(scope="module")
def template():
    with template_of("hw1_attention") as template:
        yield template


@pytest.fixture
def conn(template):
    """A worker that has run STUDENT_CODE."""
    with worker_that_ran(template, STUDENT_CODE) as conn:
        yield conn


def _lend_double(student, **limits):
    calls = []

    def double(x):
        calls.append(x)
        if isinstance(x, torch.Tensor):
            return x * 2
        if type(x) is not int:
            raise TypeError(f"expected an int or a tensor, got {type(x).__name__}")
        return 2 * x
    student.define("double", student.callback("double", double, **limits))
    return calls


def test_a_lent_function_answers_during_its_test(conn):
    student = Student(conn, call_seconds=30)
    calls = _lend_double(student)
    x = torch.arange(4.0)
    assert torch.equal(student.twice_through_grader(x), x * 4)
    assert len(calls) == 2 and torch.equal(calls[0], x)


def test_lend_replaces_only_a_name_the_notebook_defines(conn):
    """student.lend is has, callback and define in one request: the notebook's `double`
    (it has one: the cell below) becomes the grader's; a name it lacks is not bound,
    and its function is not lent (nothing could call it)."""
    student = Student(conn, call_seconds=30)
    _, error = _cell_report(*conn.request({"op": "run_cell", "index": 2,
                                           "source": "def double(x):\n    return 0"}))
    assert not error
    assert student.lend("double", lambda x: 3 * x) is True
    assert student.twice_through_grader(2) == 12
    assert student.lend("triple", lambda x: 3 * x) is False
    assert not student.has("triple")
    _, error = _cell_report(*conn.request({"op": "run_cell", "index": 3, "source": (
        "import sys\nserver = sys.modules['autograder.worker.server']\n"
        "def sneak():\n    return server.GraderFunction(double._server, 'triple')(1)")}))
    assert not error
    with pytest.raises(StudentError) as caught:  # a proxy the student made, in the test
        student.sneak()
    assert caught.value.type_name == "GraderError" and "not available" in caught.value.message
    assert not conn.dead


def test_a_callback_outside_its_test_is_refused(conn):
    _lend_double(Student(conn, call_seconds=30))
    later_test = Student(conn, call_seconds=30)  # each test gets its own Student
    with pytest.raises(StudentError) as caught:
        later_test.call_with(3)
    assert caught.value.type_name == "GraderError" and "not available" in caught.value.message
    _, error = _cell_report(*conn.request({"op": "run_cell", "index": 2, "source": "double(1)"}))
    assert "not available" in error  # nor while the notebook runs
    assert not conn.dead


def test_the_lent_function_checks_its_arguments(conn):
    student = Student(conn, call_seconds=30)
    _lend_double(student)
    for bad in ("text", [1, 2]):
        with pytest.raises(StudentError) as caught:
            student.call_with(bad)
        assert "TypeError: expected an int or a tensor" in caught.value.message
    with pytest.raises(StudentError):  # objects reach it as handles, which it refuses
        student.call_with(student.new("torch.nn.Linear", 2, 2))
    assert student.call_with(5) == 10


def test_calls_beyond_the_cap_are_refused(conn):
    student = Student(conn, call_seconds=30)
    calls = _lend_double(student, max_calls=5)
    assert student.keep_calling(5) == [0, 2, 4, 6, 8]
    with pytest.raises(StudentError) as caught:
        student.keep_calling(1)
    assert "more than 5 times" in caught.value.message and len(calls) == 5


def test_oversized_arguments_kill_the_worker(conn):
    student = Student(conn, call_seconds=30)
    calls = _lend_double(student, max_arg_bytes=1000)
    assert torch.equal(student.call_with(torch.ones(200)), torch.full((200,), 2.0))  # 800 bytes
    with pytest.raises(WorkerDied):
        student.call_with(torch.ones(300))  # 1,200 bytes: the frame is refused unread
    assert conn.dead and not alive(conn.pid) and len(calls) == 1


def test_close_kills_workers_the_grader_left_running():
    """A worker nobody killed (its grading thread stopped talking to it) is
    killed, and its folder removed, when the batch's template closes."""
    template = Template(load("hw1_attention"), [])
    left = template.spawn()
    left.request({"op": "run_cell", "index": 1, "source": "x = 1"})
    assert alive(left.pid) and left.workdir.exists()
    template.close()
    assert left.dead and not alive(left.pid)
    assert not left.workdir.exists() and not template.scratch.exists()
