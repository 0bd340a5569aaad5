"""`bench --dask K,...`: the same generated submissions graded by the local
path with K parallel submissions and by a local Dask cluster of K worker
processes of one thread each, on this machine, one after the other.

It prints, per configuration, the batch's wall time (template or host
start included, cluster start excluded) and submissions per second, and for
the cluster runs two CPU figures per submission: the client's own loop
(its main thread: reading notebooks, sending them, writing results), which
bounds one run's rate however many hosts grade, and this whole process
(client, and in a LocalCluster the scheduler and nannies, idle ticks
included): an upper bound. Each cluster run's grades.csv is
compared with the local path's. A benchmark: nothing fails on a slow machine.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from distributed import LocalCluster

from autograder.cluster import client
from autograder.engine import batch


@dataclass
class Run:
    name: str
    n: int
    wall: float
    loop_cpu: float | None = None
    """CPU seconds of the client's main thread during the run; None locally."""
    process_cpu: float | None = None
    """CPU seconds of this whole process during the run; None locally."""
    same_grades: bool | None = None

    @property
    def rate(self) -> float:
        return self.n / self.wall if self.wall > 0 else 0.0


def run(assignment: str, folder: Path, work: Path, workers: list[int]) -> str:
    """Grade `folder` locally and on clusters of each size in `workers`."""
    runs = []
    for k in workers:
        local = work / f"local-{k}"
        start = time.monotonic()
        graded = batch.grade_folder(assignment, folder, local, jobs=k, progress=False)
        runs.append(Run(f"local path, --jobs {k}", len(graded.results), time.monotonic() - start))
        runs.append(_on_cluster(assignment, folder, work / f"dask-{k}", k, local))
    return table(assignment, runs)


def _on_cluster(assignment: str, folder: Path, out: Path, k: int, local: Path) -> Run:
    with LocalCluster(n_workers=k, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as cluster:
        cpu, loop, start = _cpu(), time.thread_time(), time.monotonic()
        graded = client.grade_folder(assignment, folder, out, cluster.scheduler_address,
                                     progress=False)
        wall, loop, cpu = time.monotonic() - start, time.thread_time() - loop, _cpu() - cpu
    same = (out / "grades.csv").read_bytes() == (local / "grades.csv").read_bytes()
    return Run(f"Dask, {k} worker{'s' if k > 1 else ''} x 1 thread", len(graded.results),
               wall, loop, cpu, same)


def _each(seconds: float | None, n: int) -> str:
    return f"{1000 * seconds / n:.1f} ms" if seconds is not None and n else "-"


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def table(assignment: str, runs: list[Run]) -> str:
    lines = [f"{assignment}: local path against a local Dask cluster "
             f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})",
             "| configuration | submissions | wall | submissions/s | client loop CPU each "
             "| whole client process CPU each | grades.csv as the local path's |",
             "|---|---|---|---|---|---|---|"]
    for r in runs:
        same = {None: "-", True: "identical", False: "DIFFERENT"}[r.same_grades]
        lines.append(f"| {r.name} | {r.n} | {r.wall:.1f} s | {r.rate:.2f} | "
                     f"{_each(r.loop_cpu, r.n)} | {_each(r.process_cpu, r.n)} | {same} |")
    return "\n".join(lines)
