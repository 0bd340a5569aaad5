"""Hidden tests: greedy_decode.

The `step` the student's loop calls is built in the worker from trusted
source: its logits depend on the whole list it receives (its length and its
last id), and it records every call, so the tests can check that step is
called exactly once per generated token, with the ids generated so far. Each
step is declared with its twin, a Step made here from the same code (student.twin),
on which a failing test's diagnoses replay the student's calls.
"""
import numpy as np

from autograder.testing import StudentError, expect_equal, fail, format_test, once, sent_source

QUESTION = "greedy_decode"
STEP_SOURCE = sent_source(__file__, "step")


@once
def _step_code() -> dict:
    """STEP_SOURCE run here: its Step makes the twins of the worker's steps."""
    scope: dict = {"__name__": "grader_step"}
    exec(compile(STEP_SOURCE, "<step>", "exec"), scope)
    return scope


def _most_calls(max_len: int) -> int:
    """Calls of step after which a decode of at most max_len tokens is deemed never to
    stop (four times an honest one's, and some: a loop calling step twice per token is
    test_step_called_once_per_token's subject): step then raises
    (sent_to_worker/step.py), and the test says so."""
    return 4 * max_len + 16


def _step_arguments(tables, max_len) -> tuple:
    """make_step's arguments for a decode of at most max_len tokens."""
    return (*tables, _most_calls(max_len))


def _built(student, tables, max_len):
    """A step made in the worker for a decode of at most max_len tokens."""
    return student.build(STEP_SOURCE, "make_step", *_step_arguments(tables, max_len))


def _twin(student, step, tables, max_len, calls=None):
    """Declares step's twin for the diagnoses: a fresh Step made here from the same code
    and arguments, whose record of its calls a replay must leave as the test read it."""
    make = lambda: _step_code()["make_step"](*_step_arguments(tables, max_len))
    if calls is None:
        return student.twin(step, make)
    return student.twin(step, make, read=lambda twin: twin.calls, seen=calls)


EOS = 2


def _record_bound(max_len: int) -> int:
    """Values step.calls may hold when read back: four times an honest record's (max_len
    calls, the i-th with i ids: a list of lists), and some. A record far larger is the
    student's error, refused before this module walks it pairwise."""
    honest = 1 + max_len + max_len * (max_len + 1) // 2
    return 4 * honest + 16


def _tables(seed, V=12, rows=16, eos_at=None, sos=1):
    """Logit tables for Step; neither sos nor eos wins unless eos_at says when eos does."""
    rng = np.random.default_rng(seed)
    by_position, by_last = rng.normal(size=(rows, V)), rng.normal(size=(V, V)) * 0.5
    by_position[:, [EOS, sos]] -= 10.0  # so a list's first id is sos only when sos leads it
    if eos_at is not None:
        by_position[eos_at, EOS] += 30.0  # the (eos_at + 1)-th generated token is eos
    return by_position, by_last


def _local_step(by_position, by_last):
    def step(ids):
        return by_position[min(len(ids) - 1, len(by_position) - 1)] + by_last[ids[-1]]
    return step


def _choice(tables, received) -> int:
    """The id step's logits chose for the list `received` (lowest on ties)."""
    return int(np.argmax(_local_step(*tables)(received)))


def _run(student, tables, sos, max_len, what):
    """(the returned ids with sos_id first, step's calls). A list without sos_id in front is
    read with it (that it is there is test_starts_with_sos's subject; sos never wins)."""
    step = _built(student, tables, max_len)
    try:
        result = student.greedy_decode(step, sos, EOS, max_len)
    except StudentError as exc:
        if exc.is_a(_step_code()["TooManyCalls"]):
            fail(f"{what}: step was called more than {_most_calls(max_len)} times: decoding "
                 "must stop after max_len generated tokens, even when eos_id never wins")
        raise
    if isinstance(result, np.ndarray):
        result = result.tolist()
    if not isinstance(result, (list, tuple)):
        fail(f"{what}: returned a {type(result).__name__}, not a list of ids")
    ids = list(result)
    calls = student.read(step, "calls", at_most=_record_bound(max_len))
    _twin(student, step, tables, max_len, calls)
    return (ids if ids[:1] == [sos] else [sos] + ids), calls


@format_test
def test_starts_with_sos(student):
    """returns a list of ids whose first element is sos_id"""
    tables = _tables(0)
    step = _twin(student, _built(student, tables, 5), tables, 5)
    ids = student.greedy_decode(step, 1, EOS, 5)
    if isinstance(ids, np.ndarray):
        ids = ids.tolist()
    if not isinstance(ids, (list, tuple)) or not ids or ids[0] != 1:
        fail("greedy_decode(step, 1, 2, 5): the result is not a list starting with sos_id")


def test_argmax_each_step(ref, student):
    """appends the argmax of step's logits, running to max_len when eos never wins"""
    for seed, (sos, max_len) in enumerate([(1, 8), (0, 3), (5, 15), (1, 1)]):
        tables = _tables(seed, sos=sos)
        what = f"greedy_decode(step, {sos}, {EOS}, {max_len})"
        ids, _ = _run(student, tables, sos, max_len, what)
        expect_equal(ids, ref.greedy_decode(_local_step(*tables), sos, EOS, max_len), what)


def test_stops_after_eos(student):
    """stops right after appending eos_id, which is kept in the list"""
    # Judged on the student's own calls (what step's logits chose for each list it got), so
    # a wrong choice or length (the other tests' subjects) does not fail this test too.
    chosen = 0
    for seed, (eos_at, max_len) in enumerate(((0, 10), (3, 10), (6, 10), (4, 5))):
        tables = _tables(10 + seed, eos_at=eos_at)
        what = f"greedy_decode(step, 1, {EOS}, {max_len}) where eos wins at step {eos_at}"
        ids, calls = _run(student, tables, 1, max_len, what)
        if EOS in ids[:-1]:
            fail(f"{what}: eos_id is in the list before its end")
        for i, received in enumerate(calls):
            if _choice(tables, received) != EOS:
                continue
            chosen += 1
            if any(len(later) > len(received) for later in calls[i + 1:]):
                fail(f"{what}: step's logits chose eos_id for {received}, yet decoding went on")
            if ids[-1] != EOS:
                fail(f"{what}: step's logits chose eos_id for {received}, but the list does "
                     "not end with it: append eos_id, then stop")
    if not chosen:
        fail("in none of four runs did decoding reach a step where eos_id wins, so stopping "
             "after it cannot be checked")
    # sos_id may equal eos_id (GPT-2's <|endoftext|> is both): the list's first id was not
    # appended, so decoding goes on until eos_id is appended.
    what = f"greedy_decode(step, {EOS}, {EOS}, 10), sos_id equal to eos_id"
    ids, calls = _run(student, _tables(14, eos_at=3, sos=EOS), EOS, 10, what)
    if not calls or len(ids) < 2:
        fail(f"{what}: decoding stopped before the first step; sos_id was not appended, so "
             "it does not end the list: stop after eos_id is appended")


def test_step_called_once_per_token(student):
    """step is called exactly once per generated token, with the ids so far"""
    for seed, (max_len, eos_at) in enumerate([(6, None), (10, 2), (0, None)]):
        tables = _tables(30 + seed, eos_at=eos_at)
        what = f"greedy_decode(step, 1, {EOS}, {max_len})"
        ids, calls = _run(student, tables, 1, max_len, what)
        generated = len(ids) - 1
        if calls and ids[-1] != EOS and _choice(tables, calls[-1]) == EOS:
            generated += 1  # eos chosen but left out: test_stops_after_eos's subject
        if len(calls) != generated or (max_len and not calls):
            fail(f"{what}: step was called {len(calls)} times for {generated} generated tokens")
        for i, received in enumerate(calls):
            if received != [int(t) for t in ids[:i + 1]]:
                fail(f"{what}: call {i} of step did not receive the ids generated so far "
                     f"(sos_id first); it received {received}")


def test_ties_pick_lowest_id(student):
    """when several ids share the largest logit, the lowest id wins"""
    by_position = np.zeros((8, 10))
    by_position[:, [3, 7]] = 1.0  # 3 and 7 always tie for first place
    by_position[:, EOS] = -5.0
    tables = (by_position, np.zeros((10, 10)))
    what = "greedy_decode with tied logits"
    ids, calls = _run(student, tables, 1, 4, what)
    if not calls:
        fail(f"{what}: step was never called")
    # Judged on the student's own calls: the id appended after each list it gave step.
    for received in calls:
        if len(received) < len(ids) and ids[len(received)] != _choice(tables, received):
            fail(f"{what}: after {received}, {ids[len(received)]} was appended although a "
                 "lower id has the same, largest logit")
