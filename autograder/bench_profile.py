"""`bench --profile`: where one assignment's grading time goes.

From the results of a bench batch (each SubmissionResult's and TestResult's
`profile`, filled by the runner with engine/driving/meter.py), medians over the
submissions of:

* the worker's start (fork, confinement, handshake);
* each code cell of the notebook, labelled by its first line of code (the
  cells of the solution notebook the submissions were made from): wall time
  and the worker's CPU time;
* each hidden test, in the runner's order: its wall time (the worker's start
  and the notebook excluded), the part of it spent waiting for the worker
  (round trips and the worker's computing), the worker's CPU time, the
  grading thread's CPU time (references, comparisons, encoding, callbacks),
  the requests it sent and the callbacks it answered;
* per submission, the worker's and the grading thread's CPU time in all.

CPU times hardly move with the machine's load; wall times do. Tests are
measured where they passed (the whole test ran); a test that never passed in
the batch is measured over every submission and marked so.
"""
from __future__ import annotations

import statistics

MIN_CELL = 0.002
"""Cells whose median wall time is below this (2 ms) are summed into one line."""


def _median(values) -> float:
    values = list(values)
    return statistics.median(values) if values else 0.0


def label(source: str, width: int = 52) -> str:
    """The first line of code of a cell, shortened."""
    for line in source.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line if len(line) <= width else line[:width - 3] + "..."
    return "(comments only)"


def cell_lines(results, sources: list[str]) -> list[str]:
    """The worker's start, then one line per code cell of median >= MIN_CELL,
    then the others together."""
    per_cell: dict[int, list[dict]] = {}
    walls, cpus, starts = [], [], []
    for r in results:
        cells = r.profile.get("cells", [])
        for index, figures in cells:
            per_cell.setdefault(index, []).append(figures)
        walls.append(sum(f["wall"] for _, f in cells))
        cpus.append(sum(f.get("worker_cpu", 0.0) for _, f in cells))
        starts.extend(r.profile.get("starts", [])[:1])
    lines = [f"    worker start (fork, confinement)          {_median(starts):6.3f} s wall",
             f"    notebook, all code cells                  {_median(walls):6.3f} s wall, "
             f"{_median(cpus):6.3f} s worker CPU"]
    small = []
    for index in sorted(per_cell):
        wall = _median(f["wall"] for f in per_cell[index])
        if wall < MIN_CELL:
            small.append(wall)
            continue
        cpu = _median(f.get("worker_cpu", 0.0) for f in per_cell[index])
        text = label(sources[index - 1]) if 0 < index <= len(sources) else "?"
        lines.append(f"      cell {index:3d} {wall:6.3f} s wall {cpu:6.3f} s CPU  {text}")
    lines.append(f"      the other {len(small)} cells together {sum(small):.3f} s wall")
    return lines


def test_lines(results) -> list[str]:
    """One line per hidden test: medians of its times and its traffic."""
    runs: dict[str, list] = {}
    for r in results:
        for t in r.tests:
            if t.profile:
                runs.setdefault(f"{t.question}::{t.name}", []).append(t)
    lines = [f"    {'test':52s} {'wall':>6s} {'wait':>6s} {'w-cpu':>6s} {'g-cpu':>6s} "
             f"{'reqs':>5s} {'cbs':>4s}  runs"]
    for name, tests in runs.items():
        passed = [t for t in tests if t.status == "passed"]
        p = [t.profile for t in (passed or tests)]
        lines.append(
            f"    {name[:52]:52s} {_median(f['wall'] for f in p):6.3f} "
            f"{_median(f['seconds'] - f['callback_seconds'] for f in p):6.3f} "
            f"{_median(f.get('worker_cpu', 0.0) for f in p):6.3f} "
            f"{_median(f['grader_cpu'] for f in p):6.3f} "
            f"{_median(f['requests'] for f in p):5.0f} {_median(f['callbacks'] for f in p):4.0f}  "
            f"{len(passed)} passed" + ("" if passed else " (none passed: all runs)"))
    return lines


def cpu_line(results) -> str:
    """Per submission: the worker's CPU (notebook and tests) and the grading thread's."""
    worker, grader = [], []
    for r in results:
        cells = [f for _, f in r.profile.get("cells", [])]
        tests = [t.profile for t in r.tests if t.profile]
        worker.append(sum(f.get("worker_cpu", 0.0) for f in cells + tests))
        grader.append(sum(f["grader_cpu"] for f in cells + tests))
    return (f"    CPU per submission: worker {_median(worker):.3f} s, grading thread "
            f"{_median(grader):.3f} s (medians)")


def report(results, sources: list[str]) -> str:
    """The profile of one batch: the notebook's cells, every hidden test, CPU in all."""
    return "\n".join([
        "  profile (medians over the batch):", *cell_lines(results, sources),
        "    hidden tests, seconds: wall = the test's wall time, wait = waiting for the worker,",
        "    w-cpu = the worker's CPU, g-cpu = the grading thread's CPU; reqs = requests, "
        "cbs = callbacks",
        *test_lines(results), cpu_line(results)])
