"""The grader's own time for one hidden test, bounded: a test that spends too
long on what a submission handed back is stopped, and fails for that submission.

The worker's time is bounded by the worker's limits; this bounds the trusted
side's. What is measured is the CPU time of the grading thread (its own clock,
time.pthread_getcpuclockid), so time spent waiting on the worker never counts
and several grading threads never count each other's work; the machine's load
hardly moves it.

Python threads cannot be stopped from outside, so the stop is an asynchronous
exception (PyThreadState_SetAsyncExc) raised in the grading thread by one
watchdog thread: it stops any loop of Python code at its next bytecode. A call
in C (a numpy sort of a huge array) only sees it once it returns: what the
grader receives is bounded in size besides (Student.read, the reply limits).
GraderOverrun is a BaseException, so that a test's own `except Exception`
does not swallow it; the exchange it may interrupt kills the worker
(WorkerConnection.exchange), never leaving the channel out of step.
"""
from __future__ import annotations

import ctypes
import threading
import time
from typing import Callable, TypeVar

T = TypeVar("T")


class GraderOverrun(BaseException):
    """Raised in a grading thread whose test used up its budget of grader time."""

    def __init__(self, seconds: float = 0.0):
        super().__init__(f"the grader's time for this test ran out (budget {seconds:g} s)")
        self.seconds = seconds


def overrun_message(seconds: float) -> str:
    """What a student reads when the test stopped on its budget."""
    return (f"the grader's time for this test ran out (budget {seconds:g} s of the grader's "
            "own time) on what your code handed back: an answer or a state far larger, or "
            "stranger, than the task needs; the test fails")


class _Watch:
    """One budget being spent by one thread."""

    def __init__(self, ident: int, seconds: float):
        self.ident = ident
        self.seconds = seconds
        self.clock = time.pthread_getcpuclockid(ident)
        self.start = time.clock_gettime(self.clock)
        self.active = True
        self.fired = False

    def left(self) -> float:
        """CPU seconds left (at most that much wall time until it can run out)."""
        return self.seconds - (time.clock_gettime(self.clock) - self.start)


class _Watchdog:
    """The one thread that watches every budget being spent, started at the
    first; it sleeps until the earliest a budget could run out (CPU time never
    runs faster than the wall clock)."""

    MIN_SLEEP = 0.005

    def __init__(self):
        self.lock = threading.Condition()
        self.watches: dict[int, _Watch] = {}
        self.thread: threading.Thread | None = None

    def begin(self, seconds: float) -> _Watch:
        watch = _Watch(threading.get_ident(), seconds)
        with self.lock:
            self.watches[id(watch)] = watch
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="grader-budget",
                                               daemon=True)
                self.thread.start()
            self.lock.notify()
        return watch

    def end(self, watch: _Watch) -> bool:
        """Stop watching; whether the budget ran out. Once this returns, no
        GraderOverrun is pending for the thread: a fired one not yet delivered
        is withdrawn."""
        with self.lock:
            self.watches.pop(id(watch), None)
            if watch.active:
                watch.active = False
                if watch.fired:
                    _raise_in(watch.ident, None)
                else:  # spent inside one call that held the GIL, the watchdog kept out: run
                    try:  # out all the same, though no stop could be delivered
                        watch.fired = watch.left() <= 0
                    except OSError:
                        pass
            return watch.fired

    def _run(self) -> None:
        with self.lock:
            while True:
                wait = None
                for watch in list(self.watches.values()):
                    try:
                        left = watch.left()
                    except OSError:  # the thread is gone
                        self.watches.pop(id(watch), None)
                        continue
                    if left <= 0 and not watch.fired:
                        watch.fired = True
                        _raise_in(watch.ident, GraderOverrun)
                    elif not watch.fired:
                        wait = left if wait is None else min(wait, left)
                self.lock.wait(None if wait is None else max(wait, self.MIN_SLEEP))


def _raise_in(ident: int, exc_type) -> None:
    """Schedule exc_type in thread `ident` (None: withdraw what is scheduled)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(ident), ctypes.py_object(exc_type) if exc_type is not None else None)


_WATCHDOG = _Watchdog()


def spend(seconds: float, work: Callable[[], T]) -> T:
    """work(), in this thread, stopped by GraderOverrun(seconds) once it has
    spent `seconds` of this thread's CPU time; as work() raises otherwise.
    Nothing of the stop outlives this call."""
    watch = _WATCHDOG.begin(seconds)
    fired = False
    try:
        return work()
    except GraderOverrun:
        fired = True
    finally:
        while True:  # a GraderOverrun delivered while ending is the same overrun
            try:
                fired = _WATCHDOG.end(watch) or fired
                break
            except GraderOverrun:
                fired = True
        if fired:
            raise GraderOverrun(seconds) from None
