"""The worker uid pool's bookkeeping (engine/isolation/uidpool.py), with stand-in
sweeps: no worker is started, so no root is needed. What the sandbox does
with the uids is tests/security/test_sandbox.py's subject."""
from __future__ import annotations

import threading

import pytest

from autograder.engine.isolation import uidpool
from autograder.engine.isolation.uidpool import UidPool


def in_thread(func, seconds=5.0):
    """func()'s result, or a failure if it does not return within `seconds`."""
    out: list = []
    thread = threading.Thread(target=lambda: out.append(func()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert out, f"{func.__name__} still waits after {seconds} s"
    return out[0]


@pytest.fixture
def pools():
    made = []

    def make(sweep, size=None):
        made.append(UidPool(sweep, size))
        return made[-1]
    yield make
    for pool in made:
        pool.close()


def test_a_clean_uid_is_reused_and_a_dirty_one_never(pools):
    pool = pools(lambda uid: True)
    first = pool.acquire()
    pool.release(first, clean=True)
    assert pool.acquire() == first
    pool.release(first, clean=False)
    assert first not in {pool.acquire() for _ in range(5)}


def test_dirty_uids_do_not_use_up_a_capped_pool(pools):
    """With room for one uid, ten workers whose uid could not be swept clean
    one after the other: each next worker still gets a (new) uid."""
    pool = pools(lambda uid: True, size=1)
    seen = set()
    for _ in range(10):
        uid = in_thread(pool.acquire)
        assert uid not in seen
        seen.add(uid)
        pool.release(uid, clean=False)


def test_a_capped_pool_waits_for_a_release(pools):
    pool = pools(lambda uid: True, size=1)
    uid = pool.acquire()
    got: list = []
    waiter = threading.Thread(target=lambda: got.append(pool.acquire()), daemon=True)
    waiter.start()
    waiter.join(0.3)
    assert not got, "a second uid was handed out beyond the pool's size"
    pool.release(uid, clean=True)
    waiter.join(5)
    assert got == [uid]


def test_a_uid_that_cannot_be_swept_is_skipped(pools):
    """A new uid still running someone's processes (its sweep fails) is held
    and never used: the next one is handed out, within the cap."""
    stubborn = []

    def sweep(uid):
        if not stubborn:
            stubborn.append(uid)
            return False
        return True
    pool = pools(sweep, size=1)
    uid = in_thread(pool.acquire)
    assert uid != stubborn[0]


def test_sweeps_that_always_fail_end_in_an_error_not_a_loop(pools):
    """With no sweeper left (the template died), acquire gives up after a few
    new uids instead of taking uid after uid, each holding a lock file open,
    until the grader runs out of descriptors (which cost one notebook on
    Gradescope its results file)."""
    tried = []
    pool = pools(lambda uid: tried.append(uid) and False)

    def acquire():
        try:
            return pool.acquire()
        except uidpool.UidsUnavailable as exc:
            return exc
    assert "could not be swept clean" in str(in_thread(acquire))
    assert len(tried) == len(set(tried)) == uidpool.MAX_FAILED_SWEEPS
    assert len(pool.held) == uidpool.MAX_FAILED_SWEEPS


def test_graders_in_other_pid_namespaces_take_other_uids():
    """A container keeps its own /run, so its graders cannot see the host's uid
    locks, and the host's sweeps (kill(-1) as a uid) reach into the container:
    the ranges of the initial PID namespace and of any other never meet."""
    host = uidpool.namespace_base(uidpool.INITIAL_PID_NAMESPACE)
    others = {uidpool.namespace_base(inode) for inode in range(4026531840, 4026532900)}
    assert host == uidpool.BASE and host not in others
    assert all(base >= host + uidpool.SPAN for base in others)
    assert len(others) == uidpool.NAMESPACE_RANGES


def test_a_slow_sweep_holds_up_no_one_else(pools):
    """While one new uid's sweep takes its time, a worker that stops gives its
    uid back and the next worker gets it at once."""
    slow, in_sweep = threading.Event(), threading.Event()
    sweeps = []

    def sweep(uid):
        sweeps.append(uid)
        if len(sweeps) == 2:  # the second new uid: a stubborn sweep
            in_sweep.set()
            slow.wait(10)
        return True
    pool = pools(sweep)
    first = pool.acquire()
    got: list = []
    starting = threading.Thread(target=lambda: got.append(pool.acquire()), daemon=True)
    starting.start()
    assert in_sweep.wait(5)
    in_thread(lambda: pool.release(first, clean=True), seconds=2)
    assert in_thread(pool.acquire, seconds=2) == first
    slow.set()
    starting.join(5)
    assert got and got[0] != first


def test_a_sweep_that_raises_gives_the_uid_up(pools):
    """The uid whose sweep failed is not handed out, and it does not use up a
    capped pool: the next worker still gets one."""
    tried = []

    def sweep(uid):
        tried.append(uid)
        if len(tried) == 1:
            raise OSError("the template is gone")
        return True
    pool = pools(sweep, size=1)
    with pytest.raises(OSError):
        pool.acquire()
    assert in_thread(pool.acquire) != tried[0]
