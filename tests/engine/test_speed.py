"""Do the engine's speed measures keep every result the same?

Student.repeat (a sampling loop in one request), the reset before each test
(one request for dropping handles and seeding), the template's frozen
objects, and reference results computed once per process (engine/driving/once.py).
None of these tests measures time.
"""
from __future__ import annotations

import inspect
import threading
import time

import numpy as np
import pytest

from autograder.engine.diagnoses.record import MAX_CALLS, Calls
from autograder.engine.diagnoses.recorder import Recorder, made_by, times_sent
from autograder.engine.driving.once import once
from autograder.engine.driving.sent_ahead import pipelined, window
from autograder.engine.driving.runner import _cell_report
from autograder.engine.driving.student import RemoteObject, Student, StudentError
from autograder.engine.isolation.workers import WorkerTimeout
from tests.engine.workers_at_hand import template_of, worker_that_ran

STUDENT_CODE = '''
import numpy as np
calls = []
def draw(rng, high):
    calls.append(high)
    return int(rng.integers(0, high))
def fails_third(rng):
    calls.append(0)
    if len(calls) == 3:
        raise ValueError("third call")
    return 1
def make_list():
    return [1, 2]
def count_calls():
    return len(calls)
'''

PROBE_FROZEN = '''
import gc
frozen = gc.get_freeze_count()
'''


@pytest.fixture(scope="module")
def template():
    with template_of("hw6_encoder_decoder") as template:
        yield template


@pytest.fixture
def student(template):
    with worker_that_ran(template, STUDENT_CODE) as conn:
        yield Student(conn, call_seconds=30)


def test_repeat_draws_what_a_loop_of_calls_draws(student):
    """Does repeat(n) give the n answers n separate calls give, from a generator
    that advances from one call to the next, in one request?"""
    rng = student.new("numpy.random.default_rng", 5)
    before = student._conn.traffic.requests
    draws = student.repeat(200).draw(rng, 1000)
    assert student._conn.traffic.requests == before + 1
    expected = np.random.default_rng(5).integers(0, 1000, size=200)  # what 200 calls draw
    assert draws == [int(x) for x in expected]
    assert student.count_calls() == 200


def test_repeat_stops_at_the_first_error(student):
    """Does the first call that raises end the loop with the student's error?"""
    rng = student.new("numpy.random.default_rng", 0)
    with pytest.raises(StudentError) as caught:
        student.repeat(10).fails_third(rng)
    assert caught.value.type_name == "ValueError" and "third call" in caught.value.message
    assert student.count_calls() == 3


def test_repeat_leaves_other_calls_single(student):
    """Are the handles a repeated call answers, and the student itself, called once per call?"""
    lists = student.repeat(2).make_list()
    assert lists == [[1, 2], [1, 2]]
    assert student.make_list() == [1, 2]
    model = student.repeat(1).new("numpy.random.default_rng", 1)
    assert isinstance(model, RemoteObject)
    assert 0 <= int(model.integers(0, 10)) < 10  # one answer, not a list: handles call once


def test_repeat_of_a_recorded_question_is_kept_as_its_calls(student):
    """Are a recorded stub's n repeated calls kept as n calls on its arguments (what a
    sign counts), a raising one as its Raised alone, and too many as a spoiled record?"""
    rng = student.new("numpy.random.default_rng", 5)
    record = Calls("fails_third")
    student.observe(Recorder(record))
    with pytest.raises(StudentError):
        student.repeat(10).fails_third(rng)
    assert len(record.calls) == 1 and record.calls[0][2].type_names[0] == "ValueError"
    record = Calls("draw")
    student.observe(Recorder(record))
    draws = student.repeat(50).draw(rng, 1000)
    assert len(record.calls) == 1 and record.count == 50  # one entry until a diagnosis reads it
    record.expand()
    assert [c[2] for c in record.calls] == draws
    assert all(c[0][1] == 1000 and c[0][0] is rng for c in record.calls)
    assert len(record.own()) == 50
    record = Calls("draw")
    student.observe(Recorder(record))
    student.repeat(MAX_CALLS + 1).draw(rng, 10)
    assert record.spoiled and not record.calls


def test_a_recorded_tests_generators_keep_how_they_were_built(student):
    """Does a recorded test's new() keep its arguments on the handle, count the requests
    the handle is sent in, and forget them once the handle is read?"""
    assert made_by(student.new("numpy.random.default_rng", 3)) is None  # not recorded
    student.observe(Recorder(Calls("draw")))
    rng = student.new("numpy.random.default_rng", 3)
    assert (made_by(rng), times_sent(rng)) == (("numpy.random.default_rng", (3,), {}), 0)
    student.repeat(5).draw(rng, 10)
    assert times_sent(rng) == 1
    rng.integers(0, 10)
    assert made_by(rng) is None


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, Student.MAX_REPEAT + 1])
def test_repeat_refuses_a_bad_count(student, bad):
    with pytest.raises(ValueError):
        student.repeat(bad)


def test_reset_drops_handles_and_seeds(student):
    """Does reset() forget the earlier test's handles and seed every generator?"""
    rng = student.new("numpy.random.default_rng", 0)
    student.reset(7)
    with pytest.raises(StudentError) as caught:
        rng.integers(0, 10)
    assert "unknown handle" in caught.value.message
    first = student.new("numpy.random.random")
    student.reset(7)
    assert student.new("numpy.random.random") == first


def test_reset_travels_with_the_next_request(student):
    """Does reset() cost no round trip of its own, and apply before the request it
    travels with, also when that request comes from a derived student (at_most)?"""
    rng = student.new("numpy.random.default_rng", 0)
    before = student._conn.traffic.requests
    student.reset(3)
    assert student._conn.traffic.requests == before
    value = student.at_most(1024).new("numpy.random.random")
    assert student._conn.traffic.requests == before + 1
    assert value == np.random.RandomState(3).random_sample()  # numpy's global generator, seeded 3
    with pytest.raises(StudentError):  # dropped with the reset
        rng.integers(0, 10)


def test_the_template_froze_its_objects(template):
    """Does a worker start with the template's objects frozen (never walked by its
    garbage collector)?"""
    conn = template.spawn()
    try:
        _, error = _cell_report(*conn.request({"op": "run_cell", "index": 1,
                                               "source": PROBE_FROZEN}))
        assert error == ""
        assert Student(conn, call_seconds=30).value("frozen") > 10_000
    finally:
        conn.kill()


def test_once_computes_once_for_concurrent_callers():
    """Do threads asking at the same time for the same arguments share one computation?"""
    computed = []

    @once
    def slow_square(x):
        computed.append(x)
        time.sleep(0.05)
        return x * x
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(slow_square(3))) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [9] * 6 and computed == [3]
    assert slow_square(4) == 16 and computed == [3, 4] and slow_square.cache_size() == 2


def test_once_caches_no_failure():
    """Does a call that raised compute again next time?"""
    attempts = []

    @once
    def flaky(x):
        attempts.append(x)
        if len(attempts) == 1:
            raise RuntimeError("first")
        return x
    with pytest.raises(RuntimeError):
        flaky(1)
    assert flaky(1) == 1 and attempts == [1, 1]


def test_a_helper_compiled_once_still_runs_in_a_fresh_scope(student):
    """Does a grader helper built twice (its code compiled once per worker) start
    from a fresh scope each time, and do other sources get their own code?"""
    source = "seen = []\ndef add(x):\n    seen.append(x)\n    return len(seen)\n"
    assert student.build(source, "add", 1) == 1
    assert student.build(source, "add", 2) == 1
    assert student.build(source.replace("len(seen)", "-len(seen)"), "add", 3) == -1


def _cells(sources):
    return ({"op": "run_cell", "index": i, "source": s} for i, s in enumerate(sources, 1))


def test_pipelined_cells_answer_in_order(template):
    """Do cells sent ahead of their replies (more than a window of them, and
    outputs larger than a socket's buffer) each get their own report, in order?"""
    conn = template.spawn()
    padding = "#" * (window(conn.sock) // 20) + "\n"
    sources = [padding + f"x{i} = {i}\nprint({i}, 'y' * 60000 if {i} % 10 == 0 else '')"
               for i in range(60)]
    assert sum(map(len, sources)) > 2 * window(conn.sock)
    try:
        reports = [_cell_report(*reply) for reply in pipelined(conn, _cells(sources), 60)]
        assert [out.split()[0] for out, _ in reports] == [str(i) for i in range(60)]
        assert all(error == "" for _, error in reports)
        assert conn.traffic.requests == 60
    finally:
        conn.kill()


def test_many_small_cells_sent_ahead_all_answer(template):
    """Do a thousand one-line cells, whose frames together are far smaller than
    a socket's buffer in bytes but not in the kernel's count (each queued frame
    costs about 766 bytes), all get their reports? Counted in bytes alone, both
    sides blocked sending and the notebook's time ran out."""
    conn = template.spawn()
    try:
        reports = [_cell_report(*reply) for reply in pipelined(conn, _cells(
            [f"x = {i}" for i in range(1000)]), 60)]
        assert reports == [("", "")] * 1000
    finally:
        conn.kill()


def test_pipelined_cells_name_the_one_that_hangs(template):
    """Is the timeout raised at the reply of the cell that hangs, the earlier
    cells answered and the worker killed?"""
    conn = template.spawn()
    replies = pipelined(conn, _cells(["a = 1", "import time\ntime.sleep(30)", "b = 2"]), 2)
    assert _cell_report(*next(replies)) == ("", "")
    with pytest.raises(WorkerTimeout):
        next(replies)
    assert conn.dead


def test_shared_answers_are_read_once_per_worker(student):
    """Does Student.shared compute once per worker (for every test's Student on it),
    and keep nothing when the computation raises?"""
    computed = []

    def count():
        computed.append(1)
        return student.count_calls()
    again = Student(student._conn, call_seconds=30)  # the next test's student, same worker
    assert student.shared("calls", count) == again.shared("calls", count) == 0
    assert computed == [1]
    with pytest.raises(StudentError):
        student.shared("third", lambda: [student.fails_third(None) for _ in range(3)])
    assert student.shared("third", lambda: "computed again") == "computed again"


def test_a_batch_without_diagnoses_gives_the_same_scores_and_outputs(tmp_path):
    """grade_folder(diagnose=False), as `audit` and build's self-check grade: the
    same scores and outputs, without the diagnosis a mistake gets otherwise."""
    from autograder.engine import assignment as assignment_mod
    from tests.assignments import corpus_tools
    from tests.conftest import grade, write_notebook
    variant = next(p for p in corpus_tools.variants("hw1_attention")
                   if p.name == "causal_mask_blocks_diagonal.py")
    reference = inspect.getsource(assignment_mod.load("hw1_attention").reference)
    subs = tmp_path / "subs"
    subs.mkdir()
    write_notebook(subs / "s1.ipynb", corpus_tools.cells(variant, reference))
    graded = {diagnose: grade("hw1_attention", subs, tmp_path / f"out-{diagnose}",
                              diagnose=diagnose)["s1"] for diagnose in (True, False)}
    on, off = ([(t.name, t.score, t.output, t.diagnosis) for t in graded[d].tests]
               for d in (True, False))
    assert [t[:3] for t in on] == [t[:3] for t in off]
    assert any(t[3] for t in on) and not any(t[3] for t in off)
