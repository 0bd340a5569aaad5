"""Each assignment's zip in Gradescope's container at its defaults (768 MB and half a
CPU, root under Docker's profile, with Landlock and without), its own setup.sh having
built the image: the mode line, the score of the full solution and of the untouched
notebook, the wall time and the memory peak of each run, as one Markdown table (the
figures of the README's Gradescope section). As root, from the repository root:

    .venv/bin/python scripts/gradescope_figures.py [ASSIGNMENT ...]

tests/gradescope/container.py says what is reproduced and what is not.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import nbformat  # noqa: E402

from autograder import registry  # noqa: E402
from autograder.build import solution_notebook  # noqa: E402
from autograder.gradescope import package  # noqa: E402
from tests.gradescope import container  # noqa: E402

MB = 2**20


def main(assignments: list[str]) -> None:
    why = container.unavailable()
    if why:
        sys.exit(f"gradescope_figures: {why}")
    images = container.Images()
    print("| assignment | sandbox | full solution | untouched | wall time (full) | memory held "
          "(peak) | with page cache | memory_mb the worker gets |")
    print("|---|---|---|---|---|---|---|---|")
    try:
        for assignment_id in assignments:
            image = images.build(package.write_zip(
                assignment_id, images.base / f"{assignment_id}.zip"), assignment_id)
            print(row(assignment_id, image), flush=True)
    finally:
        images.close()


def row(assignment_id: str, image: container.Image) -> str:
    """The assignment's line of the table: each figure with Landlock / without."""
    notebook = f"{assignment_id}.ipynb"
    solution = solution_notebook(assignment_id)
    cases = {"full": nbformat.writes(solution).encode(),
             "untouched": registry.get(assignment_id).student_notebook.read_bytes()}
    # the submitter the solution says it is (an exam checks the identity)
    claimed = re.search(r'STUDENT_ID = "(\w+)"', "\n".join(c.source for c in solution.cells))
    metadata = {"id": 1, "users": [{"name": "Ada", "sid": claimed[1] if claimed else "s1"}]}
    modes, full, untouched, wall, held, cached, given = ([] for _ in range(7))
    for landlock in (True, False):
        runs = {case: image.run({notebook: data}, metadata, landlock=landlock)
                for case, data in cases.items()}
        line = runs["full"].mode_lines[0] if runs["full"].mode_lines else "sandbox: none ("
        modes.append(line.removeprefix("sandbox: ").split(" (")[0])
        full.append(_score(runs["full"]))
        untouched.append(_score(runs["untouched"]))
        wall.append(f"{runs['full'].seconds:.1f}")
        held.append(f"{max(r.resident or 0 for r in runs.values()) / MB:.0f}")
        cached.append(f"{max(r.peak or 0 for r in runs.values()) / MB:.0f}")
        given.append(line.split("lowered to ")[1].split(" ")[0] if "lowered to" in line
                     else "as configured")
    both = " / ".join
    return (f"| {assignment_id} | {both(modes)} | {both(full)} | {both(untouched)} | "
            f"{both(wall)} s | {both(held)} MB | {both(cached)} MB | {both(given)} MB |")


def _score(run: container.Run) -> str:
    return f"{run.results['score']:g}" if run.results else "no results"


if __name__ == "__main__":
    main(sys.argv[1:] or [a.id for a in registry.all_assignments() if a.has_master])
