"""`bench --profile`: where one assignment's grading time goes.

From the results of a bench batch (each SubmissionResult's and TestResult's
`profile`, filled by the runner), medians over the submissions of:

* the worker's start (fork, confinement, handshake);
* each code cell of the notebook, labelled by its first line of code (the
  cells of the solution notebook the submissions were made from);
* each hidden test, in the runner's order: its own wall time (the worker's
  start and the notebook excluded), the requests it sent to the worker, the
  callbacks it answered, the time spent waiting for the worker (its round
  trips and the student's code) and the time spent in the grader (reference
  results, comparisons, callbacks).

Tests are measured where they passed (the whole test ran); a test that never
passed in the batch is measured over every submission and marked so.
"""
from __future__ import annotations

import statistics

MIN_CELL = 0.002
"""Cells whose median is below this (2 ms) are summed into one line."""


def _median(values) -> float:
    values = list(values)
    return statistics.median(values) if values else 0.0


def label(source: str, width: int = 56) -> str:
    """The first line of code of a cell, shortened."""
    for line in source.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line if len(line) <= width else line[:width - 3] + "..."
    return "(comments only)"


def cell_lines(results, sources: list[str]) -> list[str]:
    """One line per code cell of median >= MIN_CELL, then the rest together."""
    per_cell: dict[int, list[float]] = {}
    totals, starts = [], []
    for r in results:
        cells = r.profile.get("cells", [])
        for index, seconds in cells:
            per_cell.setdefault(index, []).append(seconds)
        totals.append(sum(s for _, s in cells))
        starts.extend(r.profile.get("starts", [])[:1])
    lines = [f"    worker start (fork, confinement)          {_median(starts):7.3f} s",
             f"    notebook, all code cells                  {_median(totals):7.3f} s"]
    small = 0.0
    for index in sorted(per_cell):
        med = _median(per_cell[index])
        if med < MIN_CELL:
            small += med
            continue
        text = label(sources[index - 1]) if 0 < index <= len(sources) else "?"
        lines.append(f"      cell {index:3d} {med:7.3f} s  {text}")
    lines.append(f"      the other {sum(_median(v) < MIN_CELL for v in per_cell.values())} "
                 f"cells together {small:.3f} s")
    return lines


def test_lines(results) -> list[str]:
    """One line per hidden test: medians of its time and its traffic."""
    runs: dict[str, list] = {}
    for r in results:
        for t in r.tests:
            runs.setdefault(f"{t.question}::{t.name}", []).append(t)
    lines = [f"    {'test':58s} {'own s':>6s} {'worker':>6s} {'grader':>6s} "
             f"{'reqs':>5s} {'cbs':>5s}  runs"]
    for name, tests in runs.items():
        passed = [t for t in tests if t.status == "passed" and t.profile]
        measured = passed or [t for t in tests if t.profile]
        own = [t.seconds - t.profile.get("ready", 0.0) for t in measured]
        worker = [t.profile["seconds"] - t.profile["callback_seconds"]
                  for t in measured if "seconds" in t.profile]
        grader = [o - w for o, w in zip(own, worker)]
        lines.append(
            f"    {name[:58]:58s} {_median(own):6.3f} {_median(worker):6.3f} "
            f"{_median(grader):6.3f} {_median(t.profile.get('requests', 0) for t in measured):5.0f} "
            f"{_median(t.profile.get('callbacks', 0) for t in measured):5.0f}  "
            f"{len(passed)} passed" + ("" if passed else " (none passed: all runs)"))
    return lines


def report(results, sources: list[str]) -> str:
    """The profile of one batch: the notebook's cells, then every hidden test
    (seconds are medians; own = the test's wall time, worker = waiting for the
    worker, grader = the rest; reqs and cbs = requests sent and callbacks answered)."""
    return "\n".join(["  profile (medians over the batch):", *cell_lines(results, sources),
                      "    hidden tests: own = wall time of the test, worker = waiting for the "
                      "worker,", "    grader = the rest, reqs = requests, cbs = callbacks",
                      *test_lines(results)])
