"""`python -m autograder build`: student notebooks, Gradescope zips and demo
submissions, regenerated from solutions/<id>/<id>.py.

    master (jupytext py:percent, otter assign format)
      -> otter assign in a temporary folder           (autograder.build.assign)
      -> student notebook -> STUDENT_PIPELINE         (autograder.build.transforms)
      -> assignments/<id>/<id>.ipynb                  (byte-identical on every build)
      -> build/gradescope/<id>.zip                    (autograder.gradescope.package)
      -> examples/<id>/*                              (autograder/<id>/examples.py, if any;
                                                       autograder.build.examples)

The public tests travel inside the student notebook's metadata (otter's
`tests: files: false`); no tests/ folder is shipped beside it.
"""
from __future__ import annotations

import copy
import functools
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

from autograder import paths
from autograder.build.transforms import (SOLUTION_PIPELINE, STUDENT_PIPELINE, BuildError,
                                         apply, serialise)

GRADESCOPE_DIR = paths.ROOT / "build" / "gradescope"


def master_path(assignment_id: str) -> Path:
    return paths.SOLUTIONS / assignment_id / f"{assignment_id}.py"


def student_path(assignment_id: str) -> Path:
    return paths.ASSIGNMENTS / assignment_id / f"{assignment_id}.ipynb"


def buildable() -> list[str]:
    """Every assignment that has a master notebook."""
    return sorted(p.name for p in paths.SOLUTIONS.glob("*") if master_path(p.name).is_file())


def _assign(assignment_id: str):
    """otter assign's output for the master as it is now (cached by content)."""
    master = master_path(assignment_id)
    if not master.is_file():
        raise BuildError(f"no master notebook {master.relative_to(paths.ROOT)}")
    return assign_cached(assignment_id, hashlib.sha256(master.read_bytes()).hexdigest())


@functools.lru_cache(maxsize=8)
def assign_cached(assignment_id: str, master_sha256: str):
    """One otter assign run per master content (`assign_cached.cache_clear()` to redo)."""
    from autograder.build.assign import run_otter_assign
    return run_otter_assign(master_path(assignment_id))


def student_notebook(assignment_id: str) -> bytes:
    """The canonical bytes of the student notebook."""
    nb = copy.deepcopy(_assign(assignment_id).student)
    return serialise(apply(nb, STUDENT_PIPELINE))


def solution_notebook(assignment_id: str) -> nbformat.NotebookNode:
    """The master as a notebook: solutions kept, markers stripped, test cells
    replaced by grader.check cells (for tests and demo submissions)."""
    nb = copy.deepcopy(_assign(assignment_id).autograder)
    return apply(nb, SOLUTION_PIPELINE)


@dataclass
class Built:
    notebook: Path
    changed: bool
    zip: Path
    examples: list[Path]


def build_assignment(assignment_id: str, torch_wheel: Path | None = None) -> Built:
    from autograder.build import examples
    from autograder.gradescope import package
    data = student_notebook(assignment_id)
    target = student_path(assignment_id)
    changed = not target.is_file() or target.read_bytes() != data
    if changed:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    zip_path = package.write_zip(assignment_id, GRADESCOPE_DIR / f"{assignment_id}.zip",
                                 torch_wheel)
    demo = examples.write_examples(assignment_id, data, solution_notebook(assignment_id))
    return Built(target, changed, zip_path, demo)


def build_all(ids: list[str], torch_wheel: Path | None = None) -> int:
    """Build the given assignments (all with a master when empty); 0 on success.
    `torch_wheel`: a CPU torch wheel to ship in the Gradescope zips."""
    if torch_wheel is not None and not torch_wheel.name.startswith("torch-"):
        print(f"error: {torch_wheel} is not a torch wheel", file=sys.stderr)
        return 2
    if torch_wheel is not None and not torch_wheel.is_file():
        print(f"error: no such file {torch_wheel}", file=sys.stderr)
        return 2
    ids = list(ids) or buildable()
    if not ids:
        print("error: no master notebooks under solutions/", file=sys.stderr)
        return 2
    missing = [i for i in ids if not master_path(i).is_file()]
    if missing:
        print(f"error: no master notebook for {', '.join(missing)} "
              f"(expected solutions/<id>/<id>.py; have: {', '.join(buildable()) or 'none'})",
              file=sys.stderr)
        return 2
    status = 0
    for assignment_id in ids:
        try:
            built = build_assignment(assignment_id, torch_wheel)
        except BuildError as exc:
            print(f"error: {assignment_id}: {exc}", file=sys.stderr)
            status = 1
            continue
        state = "updated" if built.changed else "unchanged"
        print(f"{assignment_id}: {_rel(built.notebook)} ({state}), {_rel(built.zip)}, "
              f"{len(built.examples)} examples in {_rel(paths.EXAMPLES / assignment_id)}")
    return status


def _rel(path: Path) -> Path:
    return path.relative_to(paths.ROOT) if path.is_relative_to(paths.ROOT) else path
