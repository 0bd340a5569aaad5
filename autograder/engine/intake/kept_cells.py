"""What grading keeps of a notebook for the reports: each cell's kind and text.

The report stage never reads a submission again: the similarity report and
an exam's free responses work from the cells grading parsed, kept on the
result (SubmissionResult.cells), so a notebook that parses once is never
parsed a second time, deeper in the stack or by other rules. What must stay
true:

* a kept cell is {"cell_type": kind, "source": text}, the shape of a notebook
  cell that engine.intake.notebook.cell_source reads; nothing else of the notebook
  is kept (no outputs, attachments or metadata, whatever their shape);
* every text is the student's, cleaned once here (engine.intake.untrusted);
* the whole is bounded before any report starts: at most MAX_CELLS cells,
  CELL_CHARS characters each and TOTAL_CHARS in all (an honest notebook of
  this course has at most 55 cells and 27,000 characters), so no report's
  work on a submission grows with what the submission sent.

This module and engine.results are the engine's data a report imports (the
others, tests/test_import_rules.py, are the grading config and the text
cleaner): it reads a kept cell's text with `cell_source`.
"""
from __future__ import annotations

from autograder.engine.intake import untrusted
from autograder.engine.intake.notebook import cell_source  # the reports read cells with it

KINDS = ("code", "markdown", "raw")
"""Cell types kept as they are; any other becomes OTHER (it still ends a
free-response answer, as it did in the notebook)."""
OTHER = "other"
MAX_CELLS = 1000
CELL_CHARS = 20_000
"""One cell's text: an answer (report.answers.ANSWER_CHARS) or a free
response (untrusted.FREE_TEXT_CHARS) is capped at this too."""
TOTAL_CHARS = 200_000


def keep(cells: list[dict]) -> list[dict]:
    """The cells the reports read, from a notebook's parsed cells (in order;
    those beyond the bounds are left out)."""
    kept, total = [], 0
    for cell in cells[:MAX_CELLS]:
        if total >= TOTAL_CHARS:
            break
        kind = cell.get("cell_type")
        text = untrusted.text(cell_source(cell), min(CELL_CHARS, TOTAL_CHARS - total))
        kept.append({"cell_type": kind if kind in KINDS else OTHER, "source": text})
        total += len(text)
    return kept
