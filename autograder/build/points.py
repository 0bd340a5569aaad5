"""Points live in one place: grading_config/<id>.toml.

`build` writes each autograded question's points (the sum of its hidden
tests' points in the config) into the question's `points:` before otter
assign runs, so the student notebook shows the config's numbers; a master
needs no `points:` line. A master that still states a number that differs,
in `points:` or in its prompt ("(3 points)"), is refused with a message
naming both, as is a question without points in the config and points in
the config for a question the master does not have. Questions marked
`manual: true` are graded by hand: their points are the config's
[manual.<name>] points, checked and written the same way.
"""
from __future__ import annotations

import re

import yaml

from autograder.build.transforms import BuildError
from autograder.engine.config import Config

BEGIN_QUESTION = re.compile(r"\A\s*#\s*BEGIN QUESTION\s*\n")
POINTS_LINE = re.compile(r"^points\s*:.*$\n?", re.M)
PROSE_POINTS = re.compile(r"\((\d+(?:\.\d+)?)\s+points?\)")


def apply(nb, config: Config) -> None:
    """Write the config's points into every autograded question of the
    master notebook `nb` (in place); raises BuildError on a disagreement."""
    where = f"grading_config/{config.assignment}.toml"
    seen = set()
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "raw" or not BEGIN_QUESTION.match(cell.source):
            continue
        meta = _question(cell.source)
        name = str(meta.get("name", ""))
        if meta.get("manual"):
            if name not in config.manual:
                raise BuildError(f"manual question {name!r} of the master has no "
                                 f"[manual.{name}] in {where}; declare its points there")
            points, source = config.manual[name].points, f"[manual.{name}] points"
        elif name not in config.tests:
            raise BuildError(f"question {name!r} of the master has no [tests.{name}] in {where}; "
                             "add its tests and points there (or mark it `manual: true`)")
        else:
            points, source = config.max_points(name), "the sum of its tests' points"
        seen.add(name)
        stated = [meta["points"]] if "points" in meta else []
        stated += [m.group(1) for m in PROSE_POINTS.finditer(_prompt(nb.cells, index))]
        wrong = [s for s in stated if _number(s) != points]
        if wrong:
            raise BuildError(f"question {name!r}: the master says {wrong[0]} points, {where} "
                             f"gives {_fmt(points)} ({source}). Points live "
                             f"in {where}: remove `points:` from the master's question (build "
                             "writes it) and make its prompt agree")
        cell.source = POINTS_LINE.sub("", cell.source).rstrip("\n") + f"\npoints: {_fmt(points)}"
    missing = [q for q in [*config.questions, *config.manual] if q not in seen]
    if missing:
        raise BuildError(f"{where} gives points to {', '.join(missing)}, which the master has "
                         "no question for (# BEGIN QUESTION with that name)")


def _question(source: str) -> dict:
    try:
        meta = yaml.safe_load(BEGIN_QUESTION.sub("", source, count=1))
    except yaml.YAMLError as exc:
        raise BuildError(f"a question's settings are not valid YAML: {exc}") from None
    if not isinstance(meta, dict):
        raise BuildError(f"a question's settings are not a mapping: {source[:80]!r}")
    return meta


def _prompt(cells, index: int) -> str:
    """The Markdown between a question's settings and its first raw cell."""
    text = []
    for cell in cells[index + 1:]:
        if cell.cell_type == "raw":
            break
        if cell.cell_type == "markdown":
            text.append(cell.source)
    return "\n".join(text)


def _number(value) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _fmt(points: float) -> str:
    return f"{points:g}"
