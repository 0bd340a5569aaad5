"""The students' own answers: what they wrote in the cells that define a stub.

Used by the similarity report. What must stay true: a notebook is read
again through engine.submissions (no link followed, sizes bounded) and
parsed as data only (engine.notebook); the text kept is cleaned once here
(engine.untrusted) and capped; every line the student notebook hands out
(signatures, docstrings, starter code, the master's comments) is removed, so
what remains is the student's.
"""
from __future__ import annotations

import functools
import json
import re

from autograder import registry
from autograder.engine import untrusted
from autograder.engine.notebook import NotebookError, cell_source, parse_cells
from autograder.engine.submissions import Entry, SubmissionError, read_notebook_bytes

ANSWER_CHARS = 20_000
"""Characters kept of one answer (one question of one submission)."""


def of_entry(entry: Entry, assignment_id: str, stubs: list[str]) -> dict[str, str]:
    """{stub: the student's text for it} for one submission; {} when its
    notebook cannot be read (grading said why)."""
    try:
        raw, _ = read_notebook_bytes(entry, assignment_id)
        cells = parse_cells(raw)
    except (SubmissionError, NotebookError):
        return {}
    return of_cells([cell_source(c) for c in cells if c.get("cell_type") == "code"],
                    stubs, handed_out(assignment_id))


def starter_code(assignment_id: str) -> str:
    """The student notebook's code cells, in order."""
    return "\n".join(cell_source(c) for c in _student_cells(assignment_id)
                     if c.get("cell_type") == "code")


def of_cells(code_cells: list[str], stubs: list[str], given: frozenset[str]) -> dict[str, str]:
    """Each stub's answer: the code cells that define it at the top level
    (a cell counts for the first stub it defines), lines in `given` removed."""
    defines = {s: re.compile(rf"^(?:async\s+def|def|class)\s+{re.escape(s)}\b", re.M)
               for s in stubs}
    found: dict[str, list[str]] = {}
    for source in code_cells:
        stub = next((s for s in stubs if defines[s].search(source)), None)
        if stub is not None:
            found.setdefault(stub, []).append(source)
    answers = {}
    for stub, sources in found.items():
        text = untrusted.text("\n".join(sources), ANSWER_CHARS)
        own = [line for line in text.split("\n") if line.strip() and line.strip() not in given]
        if own:
            answers[stub] = "\n".join(own)
    return answers


@functools.lru_cache(maxsize=16)
def handed_out(assignment_id: str) -> frozenset[str]:
    """Every line (stripped) of the student notebook's code and Markdown cells."""
    return frozenset(line.strip() for c in _student_cells(assignment_id)
                     for line in cell_source(c).split("\n") if line.strip())


def _student_cells(assignment_id: str) -> list[dict]:
    """The cells of the student notebook `build` wrote ([] without one)."""
    try:
        with open(registry.get(assignment_id).student_notebook, encoding="utf-8") as f:
            cells = json.load(f).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [c for c in cells if isinstance(c, dict)]
