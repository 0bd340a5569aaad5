"""A course's late policy applied to one submission: pure functions, no files.

Given a submission's time, the student's own due date, the assignment's
LateRule and the late days the student may spend, `decide` says how many
late days are spent, what share of the raw score is kept and why; `explain`
says it to the student in one line.

What must stay true: lateness is real elapsed time (both times compared in
UTC, so a daylight-saving change never adds or removes an hour); the raw
score is never changed, only the final one is derived from it (grades.csv
keeps the raw points); a late day is spent only where it changes the final
score, and a spent day moves the due date by exactly 24 hours.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo

DAY = 86400.0
UNITS = {"day": DAY, "hour": 3600.0}
MODES = ("stepped", "linear")


@dataclass(frozen=True)
class LateRule:
    """How an assignment treats late work (the course's defaults merged with
    the assignment's own table of the policy file)."""
    due: datetime | None = None
    """The assignment's due date (aware), None when the policy gives none."""
    grace: float = 0.0
    """Seconds after the due date that cost nothing (lateness still counts from the due date)."""
    penalty: float = 0.0
    """Share of the score lost per unit late (0.1: 10%)."""
    per: str = "day"
    """The unit: "day" or "hour"."""
    mode: str = "stepped"
    """"stepped": every started unit costs a whole penalty; "linear": pro rata."""
    floor: float = 0.0
    """Least share of the score a late submission keeps (until max_late)."""
    max_late: float | None = None
    """Seconds late after which the score is 0; None: never."""
    allow_late_days: bool = True
    """Whether the term's late days may be spent on this assignment."""

    def describe(self) -> str:
        """'10% per started day', '2% per hour'."""
        pct = f"{100 * self.penalty:g}%"
        return f"{pct} per started {self.per}" if self.mode == "stepped" else f"{pct} per {self.per}"


@dataclass(frozen=True)
class Outcome:
    """What the policy made of one student's submission."""
    raw: float
    """The points the hidden tests gave (grades.csv)."""
    final: float | None
    """The score after the policy; None when there is none to give (excused,
    or the policy could not be applied to this row)."""
    due: datetime | None = None
    """This student's due date (an extension's when there is one)."""
    late_seconds: float = 0.0
    """Seconds after `due`, before late days (0 when on time or unknown)."""
    late_days: int = 0
    """Late days spent on this assignment."""
    days_left: int | None = None
    """Late days the student has left for later assignments (None: no budget)."""
    why: str = "on time"
    """"on time", "grace", "late days", "penalty", "floor", "max late", "excused",
    or "not applied" (a fault of the grader: the final score is left blank)."""
    units: float = 0.0
    """Units (days or hours, started ones when stepped) the penalty counted."""
    extension: str = ""
    """The student's extension, as the student may read it ('' when none)."""
    recorded_late: bool = False
    """The LMS says late without saying when (Canvas): no penalty is computed."""
    note: str = ""
    """For the instructor (gradebook.csv's policy column): the accommodation and
    its reason, the late days and where they came from, the penalty."""

    @property
    def excused(self) -> bool:
        return self.why == "excused"

    @property
    def penalty(self) -> float:
        return 0.0 if self.final is None else round(self.raw - self.final, 6)

    @property
    def late(self) -> bool:
        return self.late_seconds > 0 or self.recorded_late


def elapsed(start: datetime, end: datetime) -> float:
    """Seconds from `start` to `end`, real time. Python subtracts two datetimes
    that share one tzinfo (ZoneInfo("America/New_York") on both) by their
    wall clocks, which is an hour off across a daylight-saving change: UTC first."""
    return (end.astimezone(timezone.utc) - start.astimezone(timezone.utc)).total_seconds()


def kept(rule: LateRule, late: float) -> tuple[float, str, float]:
    """(share of the score kept, why, units counted) for a submission `late`
    seconds after its due date (late days already taken off)."""
    if late <= rule.grace:
        return 1.0, ("grace" if late > 0 else "on time"), 0.0
    if rule.max_late is not None and late > rule.max_late:
        return 0.0, "max late", 0.0
    units = late / UNITS[rule.per]
    if rule.mode == "stepped":  # a float a hair above a whole unit is that unit
        units = max(1, math.ceil(units - 1e-9))
    share = 1.0 - rule.penalty * units
    if rule.floor and share < rule.floor:
        return rule.floor, "floor", units
    return max(0.0, share), "penalty", units


def days_needed(rule: LateRule, late: float) -> int:
    """Whole late days (rounded up) that bring `late` within the grace period."""
    return max(1, math.ceil((late - rule.grace) / DAY - 1e-9)) if late > rule.grace else 0


def decide(rule: LateRule, raw: float, late: float, available: int,
           fixed_days: int | None = None) -> tuple[int, float, str, float]:
    """(late days spent, final score, why, units) for `raw` points submitted
    `late` seconds after the student's due date, with `available` late days
    left, or exactly `fixed_days` when an instructor set them in the ledger.
    Days are spent only where they raise the final score."""
    if fixed_days is not None:
        days = fixed_days
    else:
        days = min(days_needed(rule, late), max(0, available)) if rule.allow_late_days else 0
        if days and _final(raw, kept(rule, late - days * DAY)[0]) <= _final(raw, kept(rule, late)[0]):
            days = 0  # they would save nothing (a score of 0, or past max_late anyway)
    share, why, units = kept(rule, late - days * DAY)
    if days and why in ("on time", "grace"):
        why = "late days"
    return days, _final(raw, share), why, units


def _final(raw: float, share: float) -> float:
    return round(raw * share, 4)


def explain(o: Outcome, rule: LateRule, max_total: float, zone: tzinfo | None = None) -> str:
    """The line of a student's feedback that says how the final score was made
    ('' when there is nothing to say: on time, no extension)."""
    if o.excused:
        return "Excused from this assignment: no score is recorded."
    if o.recorded_late and not o.late_seconds:
        return "Canvas recorded this submission as late; no late penalty was computed."
    parts = []
    if o.late_seconds:
        own = "your extended due date" if o.extension else "due"
        parts.append(f"Submitted {duration(o.late_seconds)} late ({own} {show(o.due, zone)})")
    elif o.extension:
        parts.append(f"Submitted by your extended due date ({show(o.due, zone)})")
    else:
        return ""
    if o.late_days:
        left = f", {o.days_left} left" if o.days_left is not None else ""
        parts.append(f"{o.late_days} late day{'s' * (o.late_days != 1)} used{left}")
    parts.append(_penalty_text(o, rule))
    parts.append(f"final {fmt(o.final)} / {fmt(max_total)}")
    return "; ".join(parts) + "."


def _penalty_text(o: Outcome, rule: LateRule) -> str:
    if o.why == "grace":
        return f"within the {duration(rule.grace)} grace period: no penalty"
    if o.why in ("on time", "late days"):
        return "no penalty"
    if o.why == "max late":
        return f"more than {duration(rule.max_late or 0)} late → no points"
    counted = (f"{o.units:g} started {rule.per}{'s' * (o.units != 1)}" if rule.mode == "stepped"
               else duration(o.units * UNITS[rule.per]))
    text = f"{rule.describe()} ({counted}) → −{fmt(o.penalty)} points"
    if o.why == "floor":
        text += f" (a late submission keeps at least {100 * rule.floor:g}%)"
    return text


def show(when: datetime | None, zone: tzinfo | None = None) -> str:
    """'2026-03-01 23:59 EST' in the course's zone (else as given)."""
    if when is None:
        return "unknown"
    local = when.astimezone(zone) if zone else when
    return local.strftime("%Y-%m-%d %H:%M ") + (local.tzname() or "")


def duration(seconds: float) -> str:
    """'3 d 4 h', '2 h 5 min', '12 min', '40 s' (minutes and seconds rounded down,
    so one second late never reads as a minute)."""
    s = int(seconds)
    d, h, m = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if d:
        return f"{d} d {h} h" if h else f"{d} d"
    if h:
        return f"{h} h {m} min" if m else f"{h} h"
    return f"{m} min" if m else f"{s} s"


def fmt(x: float | None) -> str:
    return "" if x is None else f"{round(x, 4):g}"
