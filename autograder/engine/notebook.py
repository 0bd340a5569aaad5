"""Reading a submitted notebook into the code the worker runs.

Parsing happens here, on the trusted side, as data: JSON and nbformat only.
IPython syntax is translated line by line: harmless magics are dropped,
`%time stmt` keeps its statement, shell escapes and non-Python cell magics
are not run (the student is told).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

MAX_NOTEBOOK_BYTES = 20 * 2**20
RUN_STATEMENT = re.compile(r"^(\s*)%{1,2}(?:time|timeit|prun)\b(.*)$")
MAGIC_OR_SHELL = re.compile(r"^(\s*)(?:[%!]|\w+\s*=\s*[%!])")
HELP = re.compile(r"^(\s*)[\w.]+\?{1,2}\s*$")
SKIPPED_CELL_MAGICS = ("bash", "sh", "script", "system", "html", "javascript", "js",
                       "latex", "markdown", "svg", "writefile", "perl", "ruby", "file")


class NotebookError(Exception):
    """The submission is not a readable notebook; the message is for the student."""


@dataclass
class Cells:
    code: list[str]
    notes: list[str] = field(default_factory=list)


def read_cells(raw: bytes) -> Cells:
    if len(raw) > MAX_NOTEBOOK_BYTES:
        raise NotebookError(f"the notebook is {len(raw) // 2**20} MB; the limit is "
                            f"{MAX_NOTEBOOK_BYTES // 2**20} MB (clear large outputs and resubmit)")
    if not raw.strip():
        raise NotebookError("the notebook file is empty")
    try:
        text = raw.decode("utf-8-sig")
        nb = json.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:
        raise NotebookError(f"the file is not valid notebook JSON ({exc}); "
                            "open it in Jupyter, save it and resubmit") from None
    if not isinstance(nb, dict):
        raise NotebookError("the file is JSON but not a notebook")
    return translate([c for c in _code_sources(nb)])


def _code_sources(nb: dict) -> list[str]:
    if nb.get("nbformat", 4) < 4:  # v3 kept cells in worksheets and code in "input"
        cells = [c for ws in nb.get("worksheets", []) if isinstance(ws, dict)
                 for c in ws.get("cells", [])]
        key = "input"
    else:
        cells, key = nb.get("cells", []), "source"
    if not isinstance(cells, list):
        raise NotebookError("the notebook has no list of cells")
    sources = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            src = cell.get(key, "")
            if isinstance(src, list):
                src = "".join(s for s in src if isinstance(s, str))
            if isinstance(src, str):
                sources.append(src)
    return sources


def translate(sources: list[str]) -> Cells:
    cells = Cells(code=[])
    for number, src in enumerate(sources, 1):
        first = src.lstrip().split("\n", 1)[0]
        if first.startswith("%%"):
            magic = first[2:].split()[0] if first[2:].split() else ""
            if magic in SKIPPED_CELL_MAGICS:
                cells.notes.append(f"code cell {number}: %%{magic} cell not run while grading")
                cells.code.append("")
                continue
            src = src.lstrip().split("\n", 1)[1] if "\n" in src.lstrip() else ""
        cells.code.append("\n".join(_line(line, number, cells.notes)
                                    for line in src.split("\n")))
    return cells


def _line(line: str, number: int, notes: list[str]) -> str:
    m = RUN_STATEMENT.match(line)
    if m:
        return m.group(1) + m.group(2).strip()
    m = MAGIC_OR_SHELL.match(line) or HELP.match(line)
    if m:
        if "!" in line.split("%")[0] or line.strip().startswith("!"):
            notes.append(f"code cell {number}: shell command not run while grading: "
                         f"{line.strip()[:80]}")
        return m.group(1) + "pass"
    return line
