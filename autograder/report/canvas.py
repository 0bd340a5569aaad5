"""DIR/canvas.csv: which Canvas gradebook column it fills, out of how many
points, and what the instructor must know before importing it.

Canvas's gradebook import updates an assignment only when the column's header
carries the assignment's id ("<title> (<id>)"); a header without one makes a
NEW assignment beside the real one. The column is, in this order:

1. --canvas-column "TITLE (ID)", written exactly as given (checked against the
   roster's columns by its id when there is a roster);
2. the roster's (a Canvas gradebook export's) column for this assignment, by
   its title or id (case and spaces aside);
3. else the assignment's title, with a warning that says importing it makes
   a new assignment and lists the roster's assignment columns.

What must stay true: nothing is guessed. Two roster columns of the same title
are no match; a warning is never silent (each is a line `grade` prints and a
part of report.html). Scores are scaled to the roster's points possible for the
column when it differs from the assignment's, and said; when no points possible
is known, one line says what the Canvas assignment must be worth.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autograder.report import gradebook
from autograder.report.htmlpage import esc
from autograder.course.roster import CANVAS_ASSIGNMENT, Roster
from autograder.writing import write_atomic

WARNING = "WARNING: "
SHOWN = 10
"""Names listed in one line at most."""


@dataclass(frozen=True)
class Target:
    column: str
    """canvas.csv's score header."""
    points_possible: float | None
    """The Canvas assignment's points possible when known and not max_total (scale to it)."""
    lines: list[str]


def check_column(text: str) -> str:
    """--canvas-column's text, or ValueError saying what it must look like."""
    if CANVAS_ASSIGNMENT.fullmatch(text or "") is None:
        raise ValueError(f"--canvas-column {text!r} names no Canvas assignment id: give the "
                         'header of its gradebook column, "TITLE (ID)" (as in a gradebook '
                         "export; the id is the number in the assignment's address), else "
                         "Canvas makes a new assignment of that name")
    return text


def target(roster: Roster | None, assignment_id: str, title: str, max_total: float,
           requested: str | None = None) -> Target:
    """The column canvas.csv writes and the lines to print about it."""
    lines: list[str] = []
    points = None
    if requested:
        column = requested
        canvas_id = CANVAS_ASSIGNMENT.fullmatch(requested).group("id")
        found = roster.assignment_column(assignment_id, title, canvas_id) if roster else None
        if roster is not None and found is None:
            lines.append(f"{WARNING}--canvas-column {requested!r}: the roster has no column "
                         f"of Canvas assignment {canvas_id} ({_listing(roster)}); canvas.csv "
                         "uses the column as given: check the id before importing")
        elif found is not None:
            points = roster.points_of(found)
            if found != requested:
                lines.append(f"canvas.csv: column {requested!r} as given; the roster names "
                             f"assignment {canvas_id} {found!r} (Canvas matches the id)")
    elif roster is None:
        column = title
        lines.append(f"{WARNING}canvas.csv's column {title!r} names no Canvas assignment id: "
                     "importing it makes a NEW assignment in Canvas. To fill the existing "
                     'one, give --canvas-column "TITLE (ID)" or --roster with Canvas\'s '
                     "gradebook export")
    else:
        found = roster.assignment_column(assignment_id, title)
        column = found or title
        if found is None:
            lines.append(f"{WARNING}no column of the roster is this assignment's ({title!r}"
                         f" or {assignment_id!r}, case and spaces aside; {_listing(roster)}): "
                         f"canvas.csv's column is {title!r}, which Canvas imports as a NEW "
                         'assignment; name the right one with --canvas-column "TITLE (ID)"')
        else:
            points = roster.points_of(found)
            lines.append(f"canvas.csv: scores go in the roster's column {found!r}")
    if points is None:
        lines.append(f"note: canvas.csv's scores are out of {max_total:g} points: the Canvas "
                     f"assignment must be worth {max_total:g} points (no Points Possible of "
                     "its column in a roster says otherwise)")
    elif points != max_total:
        lines.append(f"canvas.csv: scores scaled to the Canvas assignment's {points:g} points "
                     f"possible (the roster's), from {max_total:g}: score x {points:g} / "
                     f"{max_total:g}, to 2 decimals")
    return Target(column, points if points != max_total else None, lines)


def write(path: Path, rows: list[gradebook.Row], assignment, prepared,
          max_total: float | None = None) -> list[str]:
    """canvas.csv, and the lines to print: the column's, then who is blank or
    excused and why. `prepared`: report/run.py's Prepared (roster, the
    --canvas-column text, the excused identifiers); `max_total`: the points
    possible when not the assignment's autograded ones (with manual scores)."""
    excused = frozenset(prepared.excused)
    max_total = assignment.max_total if max_total is None else max_total
    max_total = _out_of(prepared, assignment, max_total)
    t = target(prepared.roster, assignment.id, assignment.config.title, max_total,
               prepared.canvas_column)
    write_atomic(path, gradebook.canvas_csv(rows, t.column, max_total,
                                            t.points_possible, excused))
    return [*t.lines, *_not_graded(rows, excused), *_excused(rows, excused),
            *_anonymous(rows)]


def section(lines: list[str]) -> list[str]:
    """report.html's part for the warnings about canvas.csv ([] when there is none)."""
    warnings = [line[len(WARNING):] for line in lines if line.startswith(WARNING)]
    if not warnings:
        return []
    return ["<h2>Canvas import</h2>",
            *(f'<p class="failed">canvas.csv: {esc(w)}</p>' for w in warnings)]


def _listing(roster: Roster) -> str:
    columns = roster.assignment_columns()
    if not columns:
        return "it has no assignment columns: is it Canvas's gradebook export?"
    more = f" and {len(columns) - SHOWN} more" if len(columns) > SHOWN else ""
    return "its assignment columns: " + "; ".join(repr(c) for c in columns[:SHOWN]) + more


def _out_of(prepared, assignment, max_total: float) -> float:
    """What canvas.csv's scores are out of. Before the points graded by hand are
    merged, a Canvas column worth more than the autograded points holds the whole
    assignment: the autograded points are then out of the whole (21 of 28), never
    scaled up as if they were all of it (21 -> 28 before any free response is read)."""
    whole = assignment.max_total + sum(m.points for m in assignment.config.manual.values())
    if max_total >= whole:
        return max_total
    t = target(prepared.roster, assignment.id, assignment.config.title, max_total,
               prepared.canvas_column)
    return whole if t.points_possible is not None else max_total


def _not_graded(rows: list[gradebook.Row], excused) -> list[str]:
    """The entries canvas.csv leaves blank because they could not be graded, with why."""
    blank = {}
    for row in rows:
        r = row.result
        if r is not None and r.error and gradebook.in_canvas(row) \
                and not gradebook.excused_row(row, excused):
            blank.setdefault(r.submission, r.error)
    if not blank:
        return []
    return [f"canvas.csv: {len(blank)} entries were not graded and are left blank there "
            "(not 0) for you to decide; the reasons, also in gradebook.csv's note:",
            *(f"  {sid}: {why.splitlines()[0] if why else ''}"
              for sid, why in sorted(blank.items())[:SHOWN]),
            *([f"  ... and {len(blank) - SHOWN} more"] if len(blank) > SHOWN else [])]


def _excused(rows: list[gradebook.Row], excused) -> list[str]:
    if not excused:
        return []
    marked = [row for row in rows if gradebook.in_canvas(row)
              and gradebook.excused_row(row, excused)]
    named = set().union(*(gradebook.identifiers(row) for row in marked)) if marked else set()
    lines = [f"canvas.csv: {len(marked)} students excused (EX): "
             + ", ".join(row.name for row in marked[:SHOWN])
             + (" ..." if len(marked) > SHOWN else "")] if marked else []
    unknown = sorted(excused - named)
    if unknown:
        lines.append(f"warning: --excused: {len(unknown)} identifiers name no row of "
                     f"canvas.csv: {', '.join(unknown[:SHOWN])}"
                     + (" ..." if len(unknown) > SHOWN else ""))
    return lines


def _anonymous(rows: list[gradebook.Row]) -> list[str]:
    """Without a roster: the anonymous submissions canvas.csv cannot key."""
    left = sorted({row.result.submission for row in rows if row.result is not None
                   and row.student is None and row.on_roster != "no"
                   and not gradebook.in_canvas(row)})
    if not left:
        return []
    return [f"canvas.csv: {len(left)} anonymous submissions are left out (Canvas's anonymous "
            f"download has no user id to import them by: {', '.join(left[:SHOWN])}); enter "
            "their scores in SpeedGrader, or download again once anonymity is lifted"]
