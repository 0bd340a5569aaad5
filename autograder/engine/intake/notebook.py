"""Reading a submitted notebook into the code the worker runs.

Parsing happens here, on the trusted side, as data: JSON and nbformat only.
IPython syntax is translated line by line: harmless magics are dropped,
`%time stmt` keeps its statement, shell escapes and non-Python cell magics
are not run (the student is told).

What must stay true: what parsing may cost is bounded before it starts, in
bytes (MAX_NOTEBOOK_BYTES) and in values (MAX_JSON_VALUES, counted in one
linear pass over the bytes), so a notebook that would parse to many times
its size is refused with a message, at the cost of its own submission.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from autograder.engine.intake import untrusted
from autograder.engine.results import MAX_NOTES

MAX_NOTEBOOK_BYTES = 20 * 2**20
MAX_JSON_VALUES = 500_000
"""Values (numbers, strings, lists, objects) a notebook's JSON may hold. Parsed,
each costs the grader up to about 100 bytes whatever its text (an empty list,
3 bytes, takes 72): 20 MB of `[],` took 4 s and 600 MB to parse. So the grader
parses at most ~50 MB of values per notebook; this course's notebooks hold
about 2,000, and a plot of 100,000 points kept in the outputs fits."""
JSON_STRING = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.S)
"""A JSON string, or an unterminated one up to the end (possessive, and never
retried: the scan of any text is linear)."""
RUN_STATEMENT = re.compile(r"^(\s*)%{1,2}(?:time|timeit|prun)\b(.*)$")
MAGIC_OR_SHELL = re.compile(r"^(\s*)(?:[%!]|\w+\s*=\s*[%!])")
HELP = re.compile(r"^(\s*)[\w.]+\?{1,2}\s*$")
WORKER_CELL = re.compile(r"<cell (\d{1,6})>")
"""The file name the worker compiles code cell N under (worker/server.py)."""
SKIPPED_CELL_MAGICS = ("bash", "sh", "script", "system", "html", "javascript", "js",
                       "latex", "markdown", "svg", "writefile", "perl", "ruby", "file")


class NotebookError(Exception):
    """The submission is not a readable notebook; the message is for the student."""


@dataclass
class Cells:
    code: list[str]
    notes: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    """How the student finds each code cell (see cell_labels); may be empty."""
    positions: list[int] = field(default_factory=list)
    """Each code cell's position among all the notebook's cells, as Jupyter counts."""

    def label(self, index: int) -> str:
        """The name of code cell `index` (1-based) in messages to the student."""
        return self.labels[index - 1] if 0 < index <= len(self.labels) else f"code cell {index}"

    def renumbered(self, text: str) -> str:
        """`text` with the worker's file names of code cells (`<cell 11>`, from its
        compile) written as the student counts cells ("cell 22"), so that one message
        never gives one cell two numbers."""
        def name(match: re.Match) -> str:
            index = int(match.group(1))
            return (f"cell {self.positions[index - 1]}" if 0 < index <= len(self.positions)
                    else f"code cell {index}")
        return WORKER_CELL.sub(name, text)


def read_cells(raw: bytes) -> Cells:
    """The code the worker runs, from notebook bytes (raises NotebookError)."""
    return code_cells(parse_cells(raw))


def code_cells(cells: list[dict]) -> Cells:
    """The code the worker runs, from a notebook's parsed cells (parse_cells)."""
    code = [cell_source(c) for c in cells if c.get("cell_type") == "code"]
    translated = translate(code, cell_labels(cells))
    translated.positions = [p for p, c in enumerate(cells, 1) if c.get("cell_type") == "code"]
    return translated


def cell_labels(cells: list[dict]) -> list[str]:
    """For each code cell, the name a student finds it by in Jupyter: its position
    among all cells (markdown ones too), the heading of its section and its first
    line, e.g. 'cell 14 (under "Question 2", starting "def mlm_loss(logits, labels):")'.
    Both texts are the student's: cleaned to one short line."""
    labels, heading = [], ""
    for position, cell in enumerate(cells, 1):
        source = cell_source(cell)
        if cell.get("cell_type") == "markdown":
            titles = [line.lstrip("#").strip(" *_") for line in source.splitlines()
                      if line.startswith("#") and line.lstrip("#").strip(" *_")]
            heading = titles[-1] if titles else heading
        elif cell.get("cell_type") == "code":
            first = next((line.strip() for line in source.splitlines() if line.strip()), "")
            where = [f'under "{untrusted.name(heading, 50)}"'] if heading else []
            where += [f'starting "{untrusted.name(first, 50)}"'] if first else ["empty"]
            labels.append(f"cell {position} ({', '.join(where)})")
    return labels


def parse_cells(raw: bytes) -> list[dict]:
    """Every cell of a notebook, as plain dicts (v3 worksheets flattened).
    Raises NotebookError with a message for the student."""
    if len(raw) > MAX_NOTEBOOK_BYTES:
        raise NotebookError(f"the notebook is {len(raw) // 2**20} MB; the limit is "
                            f"{MAX_NOTEBOOK_BYTES // 2**20} MB (clear large outputs and resubmit)")
    if not raw.strip():
        raise NotebookError("the notebook file is empty")
    if too_many_values(raw):
        raise NotebookError(f"the notebook holds more than {MAX_JSON_VALUES:,} values in its "
                            "outputs or metadata, far more than this assignment needs, so it "
                            "was not read: clear all outputs (Edit > Clear All Outputs), save "
                            "and resubmit, or copy your code into a fresh copy of the "
                            "assignment's notebook")
    try:
        nb = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise NotebookError(f"the file is not valid notebook JSON ({exc}); "
                            "open it in Jupyter, save it and resubmit") from None
    except RecursionError:
        raise NotebookError("the notebook's JSON is nested too deeply to read; open it in "
                            "Jupyter, save it and resubmit") from None
    if not isinstance(nb, dict):
        raise NotebookError("the file is JSON but not a notebook")
    version = nb.get("nbformat", 4)
    if not isinstance(version, int) or isinstance(version, bool):
        raise NotebookError("the notebook's nbformat field is not a version number (such as "
                            "4); open the notebook in Jupyter, save it and resubmit")
    if version < 4:  # v3 kept cells in worksheets
        cells = [c for ws in nb.get("worksheets", []) if isinstance(ws, dict)
                 for c in ws.get("cells", [])]
    else:
        cells = nb.get("cells", [])
    if not isinstance(cells, list):
        raise NotebookError("the notebook has no list of cells")
    return [c for c in cells if isinstance(c, dict)]


def too_many_values(raw: bytes, limit: int = MAX_JSON_VALUES) -> bool:
    """Whether JSON text `raw` may hold more than `limit` values, judged in time
    linear in its length: each value but the first follows a `[` (not one of
    `[]`), `,` or `:` outside strings, and each string is a value or the key
    of one. Counted in the raw bytes first (inside strings too: enough for any
    ordinary notebook), then, only when that exceeds `limit`, with each string
    replaced by one character, at most 2 x limit of them (beyond, there are
    more values anyway)."""
    def count(text: bytes) -> int:
        return (text.count(b"[") - text.count(b"[]") + text.count(b",") + text.count(b":")
                + 1)
    if count(raw) <= limit:
        return False
    stripped, strings = JSON_STRING.subn(b"0", raw, count=2 * limit + 1)
    return strings > 2 * limit or count(stripped) > limit


def cell_source(cell: dict) -> str:
    """A cell's text, whether stored as one string or a list of lines
    (v3 kept a code cell's text under "input")."""
    src = cell.get("source", cell.get("input", ""))
    if isinstance(src, list):
        src = "".join(s for s in src if isinstance(s, str))
    return src if isinstance(src, str) else ""


def translate(sources: list[str], labels: list[str] | None = None) -> Cells:
    cells = Cells(code=[], labels=list(labels or []))
    for number, src in enumerate(sources, 1):
        first = src.lstrip().split("\n", 1)[0]
        if first.startswith("%%"):
            magic = first[2:].split()[0] if first[2:].split() else ""
            if magic in SKIPPED_CELL_MAGICS:
                if len(cells.notes) < MAX_NOTES:
                    cells.notes.append(f"{cells.label(number)}: %%{magic} cell not run "
                                       "while grading")
                cells.code.append("")
                continue
            src = src.lstrip().split("\n", 1)[1] if "\n" in src.lstrip() else ""
        cells.code.append("\n".join(_line(line, cells.label(number), cells.notes)
                                    for line in src.split("\n")))
    return cells


def _line(line: str, where: str, notes: list[str]) -> str:
    m = RUN_STATEMENT.match(line)
    if m:
        return m.group(1) + m.group(2).strip()
    m = MAGIC_OR_SHELL.match(line) or HELP.match(line)
    if m:
        if ("!" in line.split("%")[0] or line.strip().startswith("!")) \
                and len(notes) < MAX_NOTES:
            notes.append(f"{where}: shell command not run while grading: "
                         f"{untrusted.name(line.strip(), 80)}")
        return m.group(1) + "pass"
    return line
