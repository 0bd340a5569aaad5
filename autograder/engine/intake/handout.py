"""Recognising the notebook as handed out: no answer in it.

A student who uploads the wrong file (the untouched handout beside their own
copy, or the zip an export cell made of it) would otherwise see 0 points and a
NameError or "..." on every test, and nobody would ask whether the right file
was sent. A notebook is the handout when each of its code cells is one of the
built student notebook's code cells (assignments/<id>/<id>.ipynb), compared
with surrounding blank lines dropped, or is otter's own scaffolding (an older
setup or export cell: it holds `grader.` or `import otter`). Grading goes on as
usual; this only explains the score (a note for the student, first, and
annotations["handed_out"] for the class report).

When a submission holds several notebooks (a folder, a zip), intake uses
`edited` to set the handout aside and grade the one with answers.

What must stay true: the notebook is read as data (its cells' text), never run.
"""
from __future__ import annotations

import functools
import json

from autograder import registry
from autograder.engine.intake.notebook import cell_source

NOTE = ("This is the notebook as handed out, with no answers: did you upload the right "
        "file? If you answered in a copy (a duplicate, a second download, another name), "
        "submit that copy, or the zip its export cell makes.")
SCAFFOLDING = ("grader.", "import otter")
MAX_CELL_CHARS = 200_000
"""A longer cell is never one of the handout's (they are a few KB)."""


def check(cells: list[dict], assignment_id: str, result) -> None:
    """Note on `result` (a SubmissionResult) when these parsed `cells` are the handout."""
    if is_handout(cells, assignment_id):
        result.notes.insert(0, NOTE)
        result.annotations["handed_out"] = True


def is_handout(cells: list[dict], assignment_id: str) -> bool:
    """Whether no code cell of `cells` differs from the handout's (scaffolding aside)."""
    handed = handout_cells(assignment_id)
    if not handed:
        return False
    code = [cell_source(c) for c in cells if c.get("cell_type") == "code"]
    return all(len(src) <= MAX_CELL_CHARS and (src.strip() in handed
                                               or any(s in src for s in SCAFFOLDING))
               for src in code)


def handout_cells(assignment_id: str) -> frozenset[str]:
    """The built student notebook's code cells, stripped; empty when there is none."""
    return _code_cells(str(registry.get(assignment_id).student_notebook))


@functools.lru_cache(maxsize=None)
def _code_cells(path: str) -> frozenset[str]:
    """Cached by path: the course's files do not change while it grades, and a grading
    host's shipped copy has a path of its own each run (cluster/bundle.py)."""
    try:
        with open(path, encoding="utf-8") as f:
            cells = json.load(f).get("cells", [])
    except (OSError, ValueError, AttributeError, KeyError):
        return frozenset()
    return frozenset(cell_source(c).strip() for c in cells
                     if isinstance(c, dict) and c.get("cell_type") == "code")
