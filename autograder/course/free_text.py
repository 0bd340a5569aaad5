"""Free-text answers of a notebook, found by their marker: what is graded by hand.

A question graded by hand (an exam's free response, any assignment's
[manual.<id>] question) is the Markdown cell holding the marker
`<!-- free response: ID -->` (its prompt), and its answer is the Markdown or
raw cells that follow, up to the next code cell, the next marker or otter's
`<!-- END QUESTION -->`. The cells are those grading kept of the submitted
notebook (SubmissionResult.cells: parsed once, as data, never run; cleaned
and bounded where they were read, engine/intake/kept_cells.py); each prompt
and answer is capped again here, and escaped wherever it is written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from autograder.engine.intake import untrusted
from autograder.engine.intake.kept_cells import cell_source

MARKER = re.compile(r"<!--\s*free response:\s*([\w.-]+)\s*-->")
END_QUESTION = "<!-- END QUESTION -->"
PLACEHOLDER = "_Type your answer here, replacing this text._"


@dataclass(frozen=True)
class Response:
    question: str
    prompt: str
    answer: str | None
    """The student's text; None when the cell was left as handed out or is missing."""


def extract(cells: list[dict], questions: list[str]) -> list[Response]:
    """The responses to `questions` (in that order) found in a notebook's
    cells (those grading kept: [] for a notebook that could not be read)."""
    found: dict[str, Response] = {}
    for i, cell in enumerate(cells):
        m = MARKER.search(cell_source(cell)) if cell.get("cell_type") == "markdown" else None
        if not m or m.group(1) in found:
            continue
        prompt = _clean(MARKER.sub("", cell_source(cell)))
        parts = []
        for nxt in cells[i + 1:]:
            text = cell_source(nxt)
            if nxt.get("cell_type") not in ("markdown", "raw") or MARKER.search(text):
                break
            if END_QUESTION in text:
                parts.append(text.split(END_QUESTION, 1)[0])
                break
            parts.append(text)
        answer = "\n\n".join(p.strip() for p in parts if p.strip() not in ("", PLACEHOLDER))
        found[m.group(1)] = Response(m.group(1), untrusted.text(prompt, untrusted.FREE_TEXT_CHARS),
                                     untrusted.text(answer, untrusted.FREE_TEXT_CHARS) or None)
    return [found.get(q, Response(q, "", None)) for q in questions]


def _clean(prompt: str) -> str:
    text = prompt.replace("<!-- BEGIN QUESTION -->", "").replace(END_QUESTION, "")
    return text.strip()
