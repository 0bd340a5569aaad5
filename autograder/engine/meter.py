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
        self.wall, self.thread = time.perf_counter(), time.thread_time()
        self.worker = process_cpu(conn.pid)
        self.traffic = dataclasses.replace(conn.traffic)

    def read(self) -> dict:
        """{"wall", "grader_cpu", "worker_cpu" (when readable), and the traffic's
        fields: "requests", "callbacks", "seconds", "callback_seconds"}."""
        figures = {"wall": time.perf_counter() - self.wall,
                   "grader_cpu": time.thread_time() - self.thread,
                   **dataclasses.asdict(self.conn.traffic.since(self.traffic))}
        worker = process_cpu(self.conn.pid) if not self.conn.dead else None
        if worker is not None and self.worker is not None:
            figures["worker_cpu"] = worker - self.worker
        return figures
