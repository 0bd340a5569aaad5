"""`bench`: our grader timed against `otter run`."""
from __future__ import annotations

import argparse
from pathlib import Path

from autograder.commands import Commands, Fail, Verb, sizes, whole
from autograder.grade import MAX_JOBS

MAX_BENCH = 100_000
"""More generated submissions than a benchmark needs."""


def declare_bench(commands: Commands) -> argparse.ArgumentParser:
    bench = commands.add_parser(
        "bench", help="time our grader against `otter run` on generated submissions",
        description="Grade N generated submissions of each assignment with this grader "
                    "and the first M with `otter run`; print per-submission medians, the "
                    "ratio and peak memory. A benchmark: it never fails on a slow machine.")
    bench.add_argument("--assignment", action="append", default=[], metavar="ID",
                       help="repeatable (default: every assignment with a master notebook)")
    bench.add_argument("-n", type=whole(1, MAX_BENCH), default=50,
                       help="submissions for our grader")
    bench.add_argument("--otter-n", type=whole(0, MAX_BENCH), default=10,
                       help="submissions for `otter run`")
    bench.add_argument("--skip-otter", action="store_true", help="time our grader only")
    bench.add_argument("--jobs", type=whole(1, MAX_JOBS), default=None,
                       help="submissions graded in parallel (default: one per core)")
    bench.add_argument("--seed", type=whole(), default=0, help="seed of the generated submissions")
    bench.add_argument("--keep", type=Path, default=None, metavar="DIR",
                       help="keep the generated submissions and results in DIR")
    bench.add_argument("--dask", type=sizes, default=None, metavar="K,...",
                       help="also grade the same submissions with the local path (--jobs K) "
                            "and on a local Dask cluster of K one-thread workers, for each K "
                            "(e.g. 1,2): submissions per second of each")
    bench.add_argument("--profile", action="store_true",
                       help="also print where the time goes: the worker's start, each notebook "
                            "cell, and each hidden test (its requests to the worker, callbacks, "
                            "time waiting for the worker and time in the grader), medians")
    return bench


def run_bench(args: argparse.Namespace, fail: Fail) -> int:
    from autograder.bench import main as run_bench
    return run_bench(assignments=args.assignment, n=args.n, otter_n=args.otter_n,
                     skip_otter=args.skip_otter, seed=args.seed, jobs=args.jobs,
                     keep=args.keep, dask=args.dask, profile=args.profile)


BENCH = Verb(declare_bench, run_bench)
