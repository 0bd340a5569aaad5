"""Maintainer tool: what a change costs, measured as `bench` measures it, the old
commit beside the new, in one run.

    .venv/bin/python scripts/bench_compare.py REV [--assignment ID ...] [-n 20]
                                              [--rounds 2] [--seed 0]

Checks REV out in a temporary worktree (sharing this checkout's .venv), then runs
`python -m autograder bench --skip-otter --profile` on the same generated
submissions (same -n and seed) with REV and with this working tree, alternately,
--rounds times each per assignment, each commit first in every other round (so
that the machine's load and cold caches fall on both alike), and prints per
assignment, old -> new and their ratio, the medians over the rounds of: batch
wall / N, the median per submission, the worker's and the grading thread's CPU
per submission; then each hidden test whose wall time or grading-thread CPU
moved by more than 10% (and 1 ms): those are where to look.
CPU times hardly move with the machine's load, wall times do. A benchmark: it
prints figures and never fails on a slow machine.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = {
    "wall / N": r"batch wall / N: ([\d.]+) s",
    "median per submission": r"median per submission \(SubmissionResult\.seconds\): ([\d.]+) s",
    "worker CPU": r"CPU per submission: worker ([\d.]+) s",
    "grading-thread CPU": r"CPU per submission: worker [\d.]+ s, grading thread ([\d.]+) s",
}
"""The figures of one assignment's bench block, as bench.report and bench_profile write them."""
TEST_LINE = re.compile(r"^    (\S+::\S+)\s+([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) +\d+ +\d+  \d+",
                       re.M)
"""A hidden test's profile line: name, wall, wait, worker CPU, grading-thread CPU, ..."""
MOVED = 0.10
"""A test is shown when its wall or grading-thread CPU moved by more than this share..."""
NOISE = 0.001
"""...and by more than this many seconds."""


def parse(text: str) -> dict:
    """{figure: seconds} of one bench block, and "tests": {name: (wall, grading CPU)}."""
    found = {name: float(m.group(1)) for name, pattern in FIGURES.items()
             if (m := re.search(pattern, text))}
    found["tests"] = {m.group(1): (float(m.group(2)), float(m.group(5)))
                      for m in TEST_LINE.finditer(text)}
    return found


def bench(tree: Path, assignment: str, n: int, seed: int) -> dict:
    """One bench run of `assignment` with the code in `tree`, parsed."""
    proc = subprocess.run(
        [sys.executable, "-m", "autograder", "bench", "--assignment", assignment, "-n", str(n),
         "--seed", str(seed), "--skip-otter", "--profile"],
        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"bench failed in {tree} ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return parse(proc.stdout)


def _median(runs: list[dict], key, index=None) -> float | None:
    values = [r[key] if index is None else r["tests"][key][index] for r in runs
              if (key in r if index is None else key in r["tests"])]
    return statistics.median(values) if values else None


def _pair(old: float | None, new: float | None) -> str:
    if old is None or new is None:
        return f"{old if old is not None else '-'} -> {new if new is not None else '-'}"
    ratio = f"{new / old:.2f}x" if old > 0 else "-"
    return f"{old:.3f} -> {new:.3f} s ({ratio})"


def compare(assignment: str, old: list[dict], new: list[dict]) -> str:
    """The figures of both commits' runs of one assignment, side by side."""
    lines = [f"{assignment} (old -> new, medians over {len(old)} + {len(new)} runs)"]
    lines += [f"  {name:24s} {_pair(_median(old, name), _median(new, name))}"
              for name in FIGURES]
    moved = []
    for name in sorted(set().union(*(r["tests"] for r in old + new))):
        pairs = [(_median(old, name, i), _median(new, name, i)) for i in (0, 1)]
        if any(a is not None and b is not None and abs(b - a) > max(MOVED * a, NOISE)
               for a, b in pairs):
            moved.append(f"    {name[:60]:60s} wall {_pair(*pairs[0])}, "
                         f"grading CPU {_pair(*pairs[1])}")
    lines.append(f"  hidden tests that moved by more than {MOVED:.0%} and {NOISE * 1000:.0f} ms: "
                 f"{len(moved) or 'none'}")
    return "\n".join(lines + moved)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the old commit")
    parser.add_argument("--assignment", action="append",
                        help="repeatable (default: hw1_attention and hw4_bert_finetuning)")
    parser.add_argument("-n", type=int, default=20, help="submissions per run")
    parser.add_argument("--rounds", type=int, default=2, help="runs per commit and assignment")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as folder:
        old_tree = Path(folder) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old_tree),
                        args.rev], check=True, capture_output=True)
        try:
            (old_tree / ".venv").symlink_to(ROOT / ".venv")
            for assignment in args.assignment or ["hw1_attention", "hw4_bert_finetuning"]:
                runs: dict[str, list[dict]] = {"old": [], "new": []}
                order = [("old", old_tree), ("new", ROOT)]
                for _ in range(args.rounds):
                    for which, tree in order:
                        runs[which].append(bench(tree, assignment, args.n, args.seed))
                    order.reverse()  # neither commit always runs first, on colder caches
                print(compare(assignment, runs["old"], runs["new"]), flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(old_tree)], capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
