"""Measuring where grading time goes, for `bench --profile`.

A Meter measures one stretch of grading with one worker (a notebook cell, a
hidden test): its wall time, the CPU time of the grading thread (references,
comparisons, encoding, callbacks), the CPU time of the worker's main thread
(the student's code and ours in the worker) and the traffic between them.
CPU times hardly move with the machine's load, where wall times do. Nothing
measured here is shown to students or changes a result; a figure that cannot
be read (a worker gone) is left out.
"""
from __future__ import annotations

import dataclasses
import time


def process_cpu(pid: int | None) -> float | None:
    """Seconds the process `pid`'s main thread has run, or None if unreadable."""
    if not pid:
        return None
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


class Meter:
    """Started on a worker's connection; read() gives what was spent since."""

    def __init__(self, conn):
        self.conn = conn
        self._start = self._now()

    def _now(self) -> tuple:
        """One reading: wall clock, this thread's CPU, the worker's CPU, the traffic."""
        return (time.perf_counter(), time.thread_time(),
                process_cpu(self.conn.pid) if not self.conn.dead else None,
                dataclasses.replace(self.conn.traffic))

    def read(self) -> dict:
        """{"wall", "grader_cpu", "worker_cpu" (when readable), and the traffic's
        fields: "requests", "callbacks", "seconds", "callback_seconds"}."""
        return self._since(self._now())

    def lap(self) -> dict:
        """read(), and the meter restarted where that reading ended (one reading
        serves both: consecutive stretches, such as cells, are measured end to end)."""
        now = self._now()
        figures = self._since(now)
        self._start = now
        return figures

    def _since(self, now: tuple) -> dict:
        (wall, thread, worker, traffic), (wall0, thread0, worker0, traffic0) = now, self._start
        figures = {"wall": wall - wall0, "grader_cpu": thread - thread0,
                   **dataclasses.asdict(traffic.since(traffic0))}
        if worker is not None and worker0 is not None:
            figures["worker_cpu"] = worker - worker0
        return figures
