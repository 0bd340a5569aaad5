"""Maintainer tool: what the diagnoses of failing tests cost the grader, per assignment.

    .venv/bin/python scripts/diagnosis_cost.py [ASSIGNMENT ...]

Grades each assignment's corpus (tests/assignments/corpus/<id>, one batch, as the
test suite does) and times every diagnosis the grader makes of a failing test
(engine/diagnoses/), in CPU seconds of the grading thread (time.thread_time:
other processes on the machine change it little). Prints, per assignment, how many
failing tests were diagnosed, their median, 90th percentile and largest cost, the
total, and the costliest records. A passing test is never diagnosed: it costs the
list appends of its record only. The first failing test of a class stub on a set of
inputs drives every mistake's model; later ones reuse that drive (diagnoses/drive.py, Driven).
The test suite never runs this (timed tests are noisy); it prints figures.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from autograder.engine.diagnoses import evidence  # noqa: E402
from autograder.engine.driving import runner  # noqa: E402
from tests.assignments import corpus_tools  # noqa: E402


def timed_corpus(assignment_id: str) -> list[tuple[float, str, int, int]]:
    """(CPU seconds, question, entries, answer entries) of each diagnosis of a grading
    of the corpus."""
    timings = []
    plain = evidence.diagnose

    def timed(candidates, record, reference):
        start = time.thread_time()
        try:
            return plain(candidates, record, reference)
        finally:
            timings.append((time.thread_time() - start, record.name, len(record.calls),
                            record.elements))

    runner.evidence.diagnose = timed  # run_case calls it through the module
    try:
        with tempfile.TemporaryDirectory() as tmp:
            corpus_tools.grade_corpus(assignment_id, Path(tmp))
    finally:
        runner.evidence.diagnose = plain
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*", help="default: every assignment with a corpus")
    args = parser.parse_args(argv)
    ids = args.assignments or sorted(p.name for p in corpus_tools.CORPUS.iterdir() if p.is_dir())
    for assignment_id in ids:
        timings = timed_corpus(assignment_id)
        ms = sorted(t[0] * 1e3 for t in timings)
        if not ms:
            print(f"{assignment_id}: no failing test of a diagnosed question")
            continue
        p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
        print(f"{assignment_id}: {len(ms)} failing tests diagnosed; median "
              f"{statistics.median(ms):.1f} ms, 90% {p90:.1f} ms, largest {ms[-1]:.1f} ms, "
              f"total {sum(ms):.0f} ms CPU")
        for seconds, question, calls, elements in sorted(timings, reverse=True)[:3]:
            print(f"    {seconds * 1e3:6.1f} ms  {question}: {calls} recorded entries, "
                  f"{elements} answer entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
