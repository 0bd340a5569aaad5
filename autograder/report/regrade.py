"""Regrading: what changed since the previous grading into the same folder.

`snapshot(out)` reads the previous DIR/<id>/results.json files before a
grading run overwrites them; `diff` compares them with the new results test
by test (matched by the results.json test name), and `markdown` explains
every changed score by the tests that changed status or points. Submission
folders the new run did not produce are stale: they are listed, never used.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from autograder.engine.results import SubmissionResult, to_gradescope
from autograder.report.feedback import md_text
from autograder.report.htmlpage import fmt

Tests = dict[str, dict]
"""results.json test name -> its entry (score, max_score, status, ...)."""


@dataclass
class Change:
    submission: str
    before: float | None
    """None: no previous result."""
    after: float | None
    """None: not in this run (stale)."""
    reasons: list[str] = field(default_factory=list)

    @property
    def delta(self) -> float:
        return (self.after or 0.0) - (self.before or 0.0)


def snapshot(out: Path) -> dict[str, Tests]:
    """{submission id: its previous tests}; {} when DIR holds no earlier run."""
    found = {}
    for path in sorted(out.glob("*/results.json")) if out.is_dir() else []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            found[path.parent.name] = {t["name"]: t for t in data["tests"]}
        except (OSError, ValueError, KeyError, TypeError):
            continue  # unreadable: treated as absent, the new result replaces it
    return found


def _tests(result: SubmissionResult) -> Tests:
    return {t["name"]: t for t in to_gradescope(result)["tests"]}


def diff(previous: dict[str, Tests], results: list[SubmissionResult]) -> list[Change]:
    """Every submission whose score or tests changed, appeared or went stale."""
    changes = []
    now = {r.submission: r for r in results}
    for sid in sorted(set(previous) | set(now)):
        before = previous.get(sid)
        after = _tests(now[sid]) if sid in now else None
        c = Change(sid, _total(before), _total(after), _reasons(before or {}, after or {}))
        if c.before != c.after or c.reasons:
            changes.append(c)
    return changes


def _total(tests: Tests | None) -> float | None:
    return None if tests is None else round(sum(float(t["score"]) for t in tests.values()), 6)


def _reasons(before: Tests, after: Tests) -> list[str]:
    out = []
    for name in list(before) + [n for n in after if n not in before]:
        b, a = before.get(name), after.get(name)
        if b is None:
            out.append(f"{name}: new test, {a['status']} {_pts(a)}")
        elif a is None:
            out.append(f"{name}: test removed (was {b['status']} {_pts(b)})")
        elif (b["status"], b["score"], b["max_score"]) != (a["status"], a["score"], a["max_score"]):
            out.append(f"{name}: {b['status']} {_pts(b)} -> {a['status']} {_pts(a)}")
    return out


def _pts(t: dict) -> str:
    return f"{fmt(float(t['score']))}/{fmt(float(t['max_score']))}"


def test_changes(previous: dict[str, Tests], results: list[SubmissionResult]) -> list[str]:
    """Changes of the tests themselves (points, tests added or removed): they
    explain many students' changes at once."""
    def maxima(all_tests) -> dict[str, float]:
        found: dict[str, float] = {}
        for tests in all_tests:
            for name, t in tests.items():
                found.setdefault(name, float(t["max_score"]))
        return found
    old = maxima(previous.values())
    new = maxima(_tests(r) for r in results)
    out = [f"{n}: new test worth {fmt(new[n])}" for n in new if n not in old]
    out += [f"{n}: removed (was worth {fmt(old[n])})" for n in old if n not in new]
    out += [f"{n}: points {fmt(old[n])} -> {fmt(new[n])}" for n in new
            if n in old and old[n] != new[n]]
    return out


def markdown(assignment: str, changes: list[Change], graded: int,
             tests_changed: list[str] = ()) -> str:
    scored = [c for c in changes if c.before is not None and c.after is not None
              and c.delta != 0]
    new = [c for c in changes if c.before is None]
    stale = [c for c in changes if c.after is None]
    lines = [f"# Regrade of {assignment}", "",
             f"{graded} submissions graded again; {len(scored)} scores changed, "
             f"{len(new)} new submissions, {len(stale)} earlier submissions not in this run.", ""]
    if tests_changed:
        lines += ["Changes of the tests since the previous run:", ""]
        lines += [f"- {t}" for t in tests_changed] + [""]
    if scored:
        lines += ["| submission | before | after | change |", "|---|---:|---:|---:|"]
        lines += [f"| {md_text(c.submission)} | {fmt(c.before)} | {fmt(c.after)} | {c.delta:+g} |"
                  for c in sorted(scored, key=lambda c: (-abs(c.delta), c.submission))]
    for c in sorted(changes, key=lambda c: c.submission):
        if c.before is not None and c.after is not None and c.reasons:
            lines += ["", f"## {md_text(c.submission)}: {fmt(c.before)} -> {fmt(c.after)} "
                             f"({c.delta:+g})", ""]
            lines += [f"- {r}" for r in c.reasons]
    if new:
        lines += ["", "## New submissions", ""] + [f"- {md_text(c.submission)}: {fmt(c.after)}"
                                                   for c in new]
    if stale:
        lines += ["", "## Stale results", "",
                  "These folders hold results of an earlier run whose submission is no longer "
                  "in the submissions folder; they are in no export or report of this run. "
                  "Delete them if the submission was withdrawn.", ""]
        lines += [f"- {md_text(c.submission)}/ (was {fmt(c.before)})" for c in stale]
    return "\n".join(lines) + "\n"


def short_summary(changes: list[Change], out: Path) -> str:
    scored = [c for c in changes if c.before is not None and c.after is not None and c.delta]
    if not scored:
        return f"regrade: no score changed (details: {out / 'regrade.md'})"
    shown = ", ".join(f"{c.submission} {c.delta:+g}" for c in
                      sorted(scored, key=lambda c: (-abs(c.delta), c.submission))[:5])
    more = f" and {len(scored) - 5} more" if len(scored) > 5 else ""
    return f"regrade: {len(scored)} scores changed ({shown}{more}); why: {out / 'regrade.md'}"
