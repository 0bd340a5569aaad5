"""The rubric-scores file a grader fills: CSV with the columns code, question,
points, comment, one row per (code, question).

`read` is strict, for merging: every row is checked before any grading time
is spent, and a file with a mistake is refused whole, each mistake named with
its line (an unknown code or question, points that are not a number, below 0
or above the question's points, a (code, question) given twice, a comment too
long, bytes that are not UTF-8). Blank points mean "not yet graded", never 0.
Extra columns (a grader's initials) and blank lines are allowed.

`add_rows` is how the export writes it: a file that does not exist is made
(the header and the rows); an existing one is only appended to, with the rows
it lacks, its own bytes untouched, so a grader's work is never overwritten.
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path

from autograder.engine.intake import untrusted
from autograder.course.manual_codes import normal
from autograder.writing import NUMBER, csv_text, spreadsheet_value

COLUMNS = ["code", "question", "points", "comment"]
MAX_BYTES = 5_000_000
"""A rubric of 2,000 students with a paragraph each is well under this."""
COMMENT_CHARS = 4_000
SHOWN_PROBLEMS = 20
"""Mistakes listed in the message; the rest are counted."""


class RubricError(ValueError):
    """A rubric-scores file that cannot be merged; the message names each line."""


@dataclass(frozen=True)
class Score:
    code: str
    question: str
    points: float | None
    """None: not yet graded (the cell is blank)."""
    comment: str
    line: int


def read(path: Path, questions: dict[str, float], codes: set[str]) -> dict[tuple[str, str], Score]:
    """(code, question) -> Score for every row of `path`; `questions`: the
    manual questions and their points, `codes`: the codes issued. Raises
    RubricError listing every mistake with its line number."""
    records, _, header_line = _records(path)
    problems: list[str] = []
    scores: dict[tuple[str, str], Score] = {}
    for line, row in records:
        code, question = normal(row["code"]), row["question"].strip()
        said = f"line {line}"
        if code not in codes:
            problems.append(f"{said}: unknown code {untrusted.name(row['code'], 40)!r} (not one "
                            "the export issued for this folder)")
        if question not in questions:
            problems.append(f"{said}: unknown question {untrusted.name(question, 40)!r}; "
                            f"manual questions: {', '.join(questions)}")
        points, why = _points(row["points"], questions.get(question))
        if why:
            problems.append(f"{said}: {why}")
        comment = row["comment"].strip()
        if len(comment) > COMMENT_CHARS:
            problems.append(f"{said}: the comment has {len(comment):,} characters; at most "
                            f"{COMMENT_CHARS:,}")
        earlier = scores.get((code, question))
        if earlier is not None:
            problems.append(f"{said}: {code} {question} is given twice (also on line "
                            f"{earlier.line}); keep one row")
            continue
        scores[(code, question)] = Score(code, question, points,
                                         untrusted.text(comment, COMMENT_CHARS), line)
    if problems:
        more = len(problems) - SHOWN_PROBLEMS
        raise RubricError(f"{path}: the rubric scores cannot be merged, fix these lines (the "
                          "header is line " + f"{header_line}):\n  "
                          + "\n  ".join(problems[:SHOWN_PROBLEMS])
                          + (f"\n  ... and {more} more" if more > 0 else ""))
    return scores


def _points(text: str, most: float | None) -> tuple[float | None, str]:
    """(points or None for a blank cell, "" or what is wrong with them)."""
    text = text.strip()
    if not text:
        return None, ""
    shown = untrusted.name(text, 40)
    if not NUMBER.fullmatch(text) or not math.isfinite(float(text)):
        return None, (f"points {shown!r} are not a number (write them like 3 or 2.5, with a "
                      "dot; leave the cell blank when not yet graded)")
    value = float(text)
    if value < 0:
        return None, f"points {shown} are below 0"
    if most is not None and value > most + 1e-9:
        return None, f"points {shown} are more than the question's {most:g}"
    return value, ""


def _records(path: Path) -> tuple[list[tuple[int, dict[str, str]]], list[str], int]:
    """([(line, {column: cell})] for each non-blank row, the header's column
    names and its line); RubricError when the file cannot be read as the
    rubric's CSV."""
    text = _text(path)
    reader = csv.reader(io.StringIO(text))
    header, header_line, records = None, 0, []
    try:
        while True:
            start = reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                break
            cells = [spreadsheet_value(c) for c in row]
            if not any(c.strip() for c in cells):
                continue
            if header is None:
                header, header_line = _header(path, start, cells), start
                continue
            cells += [""] * (len(header) - len(cells))
            records.append((start, {name: cells[i] for i, name in enumerate(header)
                                    if name in COLUMNS}))
    except csv.Error as exc:
        raise RubricError(f"{path} line {reader.line_num}: not CSV ({exc})") from None
    if header is None:
        raise RubricError(f"{path} is empty; its first line must be {','.join(COLUMNS)}")
    return records, header, header_line


def _header(path: Path, line: int, cells: list[str]) -> list[str]:
    names = [c.strip().lower() for c in cells]
    missing = [c for c in COLUMNS if c not in names]
    twice = sorted({n for n in names if n in COLUMNS and names.count(n) > 1})
    if missing or twice:
        hint = " (saved with ';' between cells? save it as comma-separated CSV)" \
            if len(cells) == 1 and ";" in cells[0] else ""
        raise RubricError(f"{path} line {line}: the header must name the columns "
                          f"{', '.join(COLUMNS)}" + (f"; missing {', '.join(missing)}"
                                                     if missing else "")
                          + (f"; named twice: {', '.join(twice)}" if twice else "") + hint)
    return names


def _text(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise RubricError(f"{path} has {size:,} bytes; a rubric-scores file is at most "
                              f"{MAX_BYTES:,}")
        data = path.read_bytes()
    except OSError as exc:
        raise RubricError(f"{path} cannot be read ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8-sig")  # a spreadsheet's UTF-8 may start with a BOM
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise RubricError(f"{path} line {line}: not UTF-8 text; save it as CSV (UTF-8)") from None


def add_rows(path: Path, pairs: list[tuple[str, str]]) -> int | None:
    """Give `path` a row with blank points for each of `pairs` it lacks: the
    whole file when there is none, else appended after its own bytes (in its
    own order of columns). The number of rows added; None when the existing
    file is not the rubric's CSV (then nothing is written)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8", newline="") as f:  # "x": never over a file
            f.write(csv_text([COLUMNS, *([c, q, "", ""] for c, q in pairs)]))
        return len(pairs)
    try:
        records, header, _ = _records(path)
    except RubricError:
        return None
    present = {(normal(row["code"]), row["question"].strip()) for _, row in records}
    new = [pair for pair in pairs if pair not in present]
    if new:
        ends_clean = path.read_bytes()[-1:] in (b"", b"\n", b"\r")
        rows = csv_text([[{"code": c, "question": q}.get(name, "") for name in header]
                         for c, q in new])
        with open(path, "a", encoding="utf-8", newline="") as f:  # its own bytes stay
            f.write(rows if ends_clean else "\n" + rows)
    return len(new)
