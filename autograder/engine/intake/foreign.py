"""Recognising the notebook of another assignment of this course.

A student who uploads hw2's notebook to hw1 would otherwise see 0 points and
"name 'causal_mask' is not defined" on every test. When a notebook's first
heading is another assignment's title, or (without a known title) it
defines at least half of another assignment's stubs and fewer of this
one's, the result says which assignment it looks like: a note
for the student (first, so feedback and the printed table show it) and
annotations["other_assignment"] for the class report. Grading goes on as
usual; this only explains the score.

What must stay true: the notebook is read as data. Names bound at the top
level of code cells (def, class, assignment) are found with a regular
expression over a bounded prefix of the code; nothing is parsed as Python
or run. The other assignments' stub names come from their grading configs,
their titles from their student notebooks' first heading.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from autograder import registry
from autograder.engine import config as config_mod
from autograder.engine.intake.notebook import cell_source

DEFINED = re.compile(r"^(?:(?:async\s+)?def|class)\s+([A-Za-z_]\w*)|^([A-Za-z_]\w*)\s*=(?!=)",
                     re.M)
MAX_CODE_CHARS = 2_000_000
"""Code examined per notebook: the cost never depends on what was sent."""
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.M)


@dataclass(frozen=True)
class Signature:
    stubs: frozenset[str]
    title: str
    """The student notebook's first heading, case-folded ("" without one)."""


def check(cells: list[dict], assignment_id: str, result) -> None:
    """Note on `result` (a SubmissionResult) when the notebook of these parsed
    `cells` is another assignment's."""
    other = other_assignment(cells, assignment_id)
    if other:
        result.notes.insert(0, note(other, assignment_id))
        result.annotations["other_assignment"] = other


def other_assignment(cells: list[dict], assignment_id: str) -> str | None:
    """The id of the other assignment whose notebook `cells` looks like,
    or None (it is this assignment's, or nobody's). The first heading
    decides when it is one of the course's titles; else the stubs defined:
    at least half of another assignment's, and a larger share of them than
    of this assignment's."""
    others = [a for a in course() if a != assignment_id]
    title = first_heading(cells)
    if title:
        if title == signature(assignment_id).title:
            return None
        named = [a for a in others if title == signature(a).title]
        if named:
            return named[0]
    code = "\n".join(cell_source(c) for c in cells if c.get("cell_type") == "code")
    defined = {a or b for a, b in DEFINED.findall(code[:MAX_CODE_CHARS])}
    mine = _share(defined, assignment_id)
    best = max(others, key=lambda a: _share(defined, a), default=None)
    if best is None or mine >= 0.5 or _share(defined, best) < max(0.5, mine + 1e-9):
        return None
    return best


def _share(defined: set[str], assignment_id: str) -> float:
    """The share of an assignment's stubs that `defined` holds."""
    stubs = signature(assignment_id).stubs
    return len(defined & stubs) / len(stubs) if stubs else 0.0


def note(other: str, assignment_id: str) -> str:
    """What the student reads."""
    return (f"This looks like the notebook of {other}, not of {assignment_id}: it was graded "
            f"as {assignment_id}, so its tests could not find your answers. Submit the "
            f"{assignment_id} notebook (and this one to {other}, if it was meant for it).")


def first_heading(cells: list[dict]) -> str:
    """The first Markdown heading of the notebook, case-folded ("" without one)."""
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            m = HEADING.search(cell_source(cell)[:10_000])
            if m:
                return m.group(1).casefold()[:200]
    return ""


@functools.lru_cache(maxsize=None)
def course() -> tuple[str, ...]:
    """The course's assignment ids (cached as signature is: registry.ids() globs
    the package folder, 0.6 ms, and every submission asks)."""
    return tuple(registry.ids())


@functools.lru_cache(maxsize=None)
def signature(assignment_id: str) -> Signature:
    """Stub names (the config's questions) and title of an assignment (cached:
    the course's files do not change while it grades)."""
    try:
        stubs = frozenset(config_mod.load(assignment_id).questions)
    except (config_mod.ConfigError, OSError, ValueError):
        stubs = frozenset()
    try:
        with open(registry.get(assignment_id).student_notebook, encoding="utf-8") as f:
            cells = json.load(f).get("cells", [])
    except (OSError, ValueError, AttributeError):
        cells = []
    return Signature(stubs, first_heading([c for c in cells if isinstance(c, dict)]))
