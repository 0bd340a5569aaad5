"""Hidden tests: greedy_decode.

The `step` the student's loop calls is built in the worker from trusted
source: its logits depend on the whole list it receives (its length and its
last id), and it records every call, so the tests can check that step is
called exactly once per generated token, with the ids generated so far.
"""
import numpy as np

from autograder.checks import expect_equal, fail

QUESTION = "greedy_decode"
STEP_SOURCE = '''
import numpy as np

class Step:
    """Logits for the next token: by_position[len(ids) - 1] + by_last[ids[-1]]."""

    def __init__(self, by_position, by_last):
        self.by_position = np.asarray(by_position, dtype=np.float64)
        self.by_last = np.asarray(by_last, dtype=np.float64)
        self.calls = []

    def __call__(self, ids):
        ids = [int(i) for i in ids]
        self.calls.append(ids)
        row = min(len(ids) - 1, len(self.by_position) - 1)
        return self.by_position[row] + self.by_last[ids[-1]]

def make_step(by_position, by_last):
    return Step(by_position, by_last)
'''


def _tables(seed, V=12, rows=16, eos_at=None, eos=2):
    rng = np.random.default_rng(seed)
    by_position, by_last = rng.normal(size=(rows, V)), rng.normal(size=(V, V)) * 0.5
    by_position[:, eos] -= 10.0  # eos only when asked for
    if eos_at is not None:
        by_position[eos_at, eos] += 30.0  # the (eos_at + 1)-th generated token is eos
    return by_position, by_last


def _local_step(by_position, by_last):
    def step(ids):
        return by_position[min(len(ids) - 1, len(by_position) - 1)] + by_last[ids[-1]]
    return step


def _run(student, tables, sos, eos, max_len, what):
    step = student.build(STEP_SOURCE, "make_step", *tables)
    result = student.greedy_decode(step, sos, eos, max_len)
    if isinstance(result, np.ndarray):
        result = result.tolist()
    if not isinstance(result, (list, tuple)):
        fail(f"{what}: returned a {type(result).__name__}, not a list of ids")
    return list(result), step.calls


def _expected(ref, tables, sos, eos, max_len):
    return ref.greedy_decode(_local_step(*tables), sos, eos, max_len)


def test_starts_with_sos(student):
    """returns a list of ids whose first element is sos_id"""
    ids, _ = _run(student, _tables(0), 1, 2, 5, "greedy_decode(step, 1, 2, 5)")
    if not ids or ids[0] != 1:
        fail("greedy_decode(step, 1, 2, 5): the list does not start with sos_id")


def test_argmax_each_step(ref, student):
    """appends the argmax of step's logits, running to max_len when eos never wins"""
    for seed, (sos, max_len) in enumerate([(1, 8), (0, 3), (5, 15), (1, 1)]):
        tables = _tables(seed)
        what = f"greedy_decode(step, {sos}, 2, {max_len})"
        ids, _ = _run(student, tables, sos, 2, max_len, what)
        expect_equal(ids, _expected(ref, tables, sos, 2, max_len), what)


def test_stops_after_eos(ref, student):
    """stops right after appending eos_id, which is kept in the list"""
    for seed, eos_at in enumerate((0, 3, 6)):
        tables = _tables(10 + seed, eos_at=eos_at)
        what = f"greedy_decode(step, 1, 2, 10) where eos wins at step {eos_at}"
        ids, _ = _run(student, tables, 1, 2, 10, what)
        expect_equal(ids, _expected(ref, tables, 1, 2, 10), what)
    tables = _tables(20, eos_at=4)
    what = "greedy_decode(step, 1, 2, 5) where eos wins at the last allowed step"
    ids, _ = _run(student, tables, 1, 2, 5, what)
    expect_equal(ids, _expected(ref, tables, 1, 2, 5), what)


def test_step_called_once_per_token(student):
    """step is called exactly once per generated token, with the ids so far"""
    for seed, (max_len, eos_at) in enumerate([(6, None), (10, 2), (0, None)]):
        what = f"greedy_decode(step, 1, 2, {max_len})"
        ids, calls = _run(student, _tables(30 + seed, eos_at=eos_at), 1, 2, max_len, what)
        if len(calls) != len(ids) - 1:
            fail(f"{what}: step was called {len(calls)} times for {len(ids) - 1} generated tokens")
        for i, received in enumerate(calls):
            if received != [int(t) for t in ids[:i + 1]]:
                fail(f"{what}: call {i} of step did not receive the ids generated so far "
                     f"(sos_id first); it received {received}")


def test_ties_pick_lowest_id(ref, student):
    """when several ids share the largest logit, the lowest id wins"""
    by_position = np.zeros((8, 10))
    by_position[:, [3, 7]] = 1.0  # 3 and 7 always tie for first place
    by_position[:, 2] = -5.0
    tables = (by_position, np.zeros((10, 10)))
    what = "greedy_decode with tied logits"
    ids, _ = _run(student, tables, 1, 2, 4, what)
    expect_equal(ids, _expected(ref, tables, 1, 2, 4), what)
