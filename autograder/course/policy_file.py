"""The course policy file (`grade --policy course.toml`): late rules per
assignment with course-wide defaults, the term's late-day budget, where the
late-day ledger and the accommodations live.

    [course]
    timezone = "America/New_York"     # of dates written without an offset
    late_days = 3                     # late days per student for the term
    ledger = "late_days.csv"          # beside this file unless absolute
    accommodations = "accommodations.csv"

    [defaults]                        # every assignment, unless its table says otherwise
    grace = "15 min"
    penalty_percent = 10
    per = "day"                       # or "hour"
    mode = "stepped"                  # every started day counts whole; or "linear"
    floor_percent = 50                # a late submission keeps at least 50%
    max_late = "5 d"                  # later than that: 0
    allow_late_days = true

    [assignments.hw1_attention]
    due = "2026-02-06T23:59"          # or with +01:00, or "2026-02-06T23:59 Europe/Paris"

What must stay true: every mistake is found before grading starts and named
with the file and line it is on (PolicyError, a ValueError, so that `grade`
refuses with exit status 2); nothing the file does not say is assumed
beyond the documented defaults (no penalty, no grace, no late days).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from datetime import date, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from autograder import registry
from autograder.course.policy import MODES, UNITS, LateRule

COURSE_KEYS = ("timezone", "late_days", "ledger", "accommodations")
RULE_KEYS = ("due", "grace", "penalty_percent", "per", "mode", "floor_percent", "max_late",
             "allow_late_days")
DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(s|sec|seconds?|min|minutes?|h|hours?|d|days?)\s*")
SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class PolicyError(ValueError):
    """The policy (or a file it names) cannot be used; the message, for the
    instructor, names the file and line."""


@dataclass(frozen=True)
class Course:
    path: Path
    zone: tzinfo | None = None
    """The course's time zone (dates without an offset, and how dates are shown)."""
    late_days: int = 0
    """Late days per student for the term (0: none)."""
    ledger: Path | None = None
    """The late-day ledger (CSV), when there is a budget."""
    accommodations: Path | None = None
    defaults: LateRule = LateRule()
    rules: dict[str, LateRule] = field(default_factory=dict)
    """Assignment id -> its rule, defaults merged in."""

    def rule(self, assignment: str) -> LateRule:
        return self.rules.get(assignment, self.defaults)

    def due(self, assignment: str) -> datetime | None:
        return self.rule(assignment).due


def read(path: Path) -> Course:
    """Raises PolicyError."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"policy {path} cannot be read ({exc}); give a TOML file") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"policy {path} is not valid TOML: {exc}") from None
    where = Locator(path, text)
    for name in raw:
        if name not in ("course", "defaults", "assignments"):
            where.fail((name,), f"unknown {name!r}; the file holds the tables [course], "
                                "[defaults] and [assignments.<id>]")
    course = _table(raw, "course", where, ())
    zone = _zone(course.get("timezone"), where)
    budget = _whole(course.get("late_days", 0), where, ("course", "late_days"))
    for key in course:
        if key not in COURSE_KEYS:
            where.fail(("course", key), f"[course] has no key {key!r}; known: "
                                        + ", ".join(COURSE_KEYS))
    defaults = _rule(_table(raw, "defaults", where, ()), LateRule(), zone, where, ("defaults",))
    if defaults.due is not None:
        where.fail(("defaults", "due"), "a due date belongs to an [assignments.<id>] table")
    rules = {}
    for assignment, table in _table(raw, "assignments", where, ()).items():
        if assignment not in registry.ids():
            where.fail(("assignments", assignment), f"unknown assignment {assignment!r}; "
                       f"known: {', '.join(registry.ids())}")
        if not isinstance(table, dict):
            where.fail(("assignments", assignment), f"[assignments.{assignment}] must be a table")
        rules[assignment] = _rule(table, defaults, zone, where, ("assignments", assignment))
    return Course(path, zone, budget,
                  _beside(path, course, "ledger", "late_days.csv" if budget else None, where),
                  _beside(path, course, "accommodations", None, where), defaults, rules)


def parse_due(text: str, zone: tzinfo | None) -> datetime:
    """'2026-03-01T23:59' (in `zone`, else this machine's), '...-05:00' or
    '2026-03-01T23:59 America/New_York'. Raises ValueError saying the forms."""
    stamp, named = text.strip(), None
    head, _, last = stamp.rpartition(" ")
    if head and re.fullmatch(r"[A-Za-z][A-Za-z0-9_+/-]*", last):  # a zone's name, not a time
        stamp, named = head.strip(), _named_zone(last)
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        raise ValueError(f"{text!r} is not a date and time; write it like 2026-03-01T23:59, "
                         "2026-03-01T23:59-05:00 or 2026-03-01T23:59 America/New_York") from None
    if named is not None and when.tzinfo is not None:
        raise ValueError(f"{text!r} has both an offset and a time zone; give one")
    return _aware(when, named or zone)


def parse_duration(text: str) -> float:
    """'15 min', '2 h', '1 d 12 h' -> seconds. Raises ValueError."""
    if not isinstance(text, str) or not DURATION.match(text):
        raise ValueError(f"{text!r} is not a duration; write it like \"15 min\", \"2 h\" or "
                         "\"3 d\"")
    pos, total = 0, 0.0
    while pos < len(text):
        m = DURATION.match(text, pos)
        if not m:
            raise ValueError(f"{text!r} is not a duration; write it like \"15 min\", \"2 h\" "
                             "or \"1 d 12 h\"")
        total += float(m.group(1)) * SECONDS[m.group(2)[0]]
        pos = m.end()
    return total


class Locator:
    """Which line of the file holds a table or key, for messages (tomllib
    gives values without lines). Best effort: an inline table's keys are
    found on the line of the table."""

    def __init__(self, path: Path, text: str):
        self.path, self.lines = path, {}
        table: tuple[str, ...] = ()
        for number, line in enumerate(text.splitlines(), 1):
            head = re.match(r"\s*\[([^\[\]]+)\]\s*(#.*)?$", line)
            key = re.match(r"\s*(\"[^\"]*\"|[A-Za-z0-9_-]+)\s*=", line)
            if head:
                table = tuple(p.strip().strip('"') for p in head.group(1).split("."))
                self.lines.setdefault(table, number)
            elif key:
                self.lines.setdefault((*table, key.group(1).strip('"')), number)

    def line(self, where: tuple[str, ...]) -> int | None:
        for n in range(len(where), 0, -1):
            if where[:n] in self.lines:
                return self.lines[where[:n]]
        return None

    def fail(self, where: tuple[str, ...], message: str):
        line = self.line(where)
        raise PolicyError(f"policy {self.path}" + (f", line {line}" if line else "")
                          + f": {message}")


def _table(raw: dict, name: str, where: Locator, at: tuple) -> dict:
    value = raw.get(name, {})
    if not isinstance(value, dict):
        where.fail((*at, name), f"{name} must be a table ([{name}])")
    return value


def _rule(table: dict, base: LateRule, zone, where: Locator, at: tuple) -> LateRule:
    changes = {}
    for key, value in table.items():
        spot = (*at, key)
        if key not in RULE_KEYS:
            where.fail(spot, f"unknown key {key!r}; known: {', '.join(RULE_KEYS)}")
        try:
            changes.update(_rule_value(key, value, zone))
        except ValueError as exc:
            where.fail(spot, f"{key}: {exc}")
    return replace(base, **changes)


def _rule_value(key: str, value, zone) -> dict:
    """One key of a rule table as LateRule fields. Raises ValueError."""
    if key == "due":
        return {"due": _due_value(value, zone)}
    if key in ("grace", "max_late"):
        seconds = parse_duration(value)
        if key == "max_late" and seconds <= 0:
            raise ValueError("must be longer than 0")
        return {key: seconds}
    if key in ("penalty_percent", "floor_percent"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not 0 <= value <= 100:
            raise ValueError(f"must be a number from 0 to 100, got {value!r}")
        return {key.removesuffix("_percent"): value / 100}
    if key == "per":
        if value not in UNITS:
            raise ValueError(f"must be one of {', '.join(map(repr, UNITS))}, got {value!r}")
        return {"per": value}
    if key == "mode":
        if value not in MODES:
            raise ValueError(f"must be one of {', '.join(map(repr, MODES))}, got {value!r}")
        return {"mode": value}
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, got {value!r}")
    return {"allow_late_days": value}


def _due_value(value, zone) -> datetime:
    if isinstance(value, datetime):  # TOML's own date-time, with or without offset
        return _aware(value, zone)
    if isinstance(value, date):
        raise ValueError(f"{value} has no time of day; write it like 2026-03-01T23:59")
    if not isinstance(value, str):
        raise ValueError(f"must be a date and time, got {value!r}")
    return parse_due(value, zone)


def _aware(when: datetime, zone) -> datetime:
    if when.tzinfo is not None:
        return when
    return when.replace(tzinfo=zone) if zone else when.astimezone()


def _zone(name, where: Locator) -> tzinfo | None:
    if name is None:
        return None
    try:
        return _named_zone(name)
    except ValueError as exc:
        where.fail(("course", "timezone"), str(exc))


def _named_zone(name) -> tzinfo:
    try:
        if not isinstance(name, str) or not name or ".." in name or name.startswith("/"):
            raise ValueError
        return ZoneInfo(name)
    except (ValueError, ZoneInfoNotFoundError, OSError):
        raise ValueError(f"{name!r} is not a time zone; name one like "
                         "America/New_York, Europe/Paris or UTC") from None


def _whole(value, where: Locator, at: tuple) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        where.fail(at, f"{at[-1]} must be a whole number of 0 or more, got {value!r}")
    return value


def _beside(path: Path, course: dict, key: str, default: str | None, where) -> Path | None:
    value = course.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        where.fail(("course", key), f"{key} must be a file name")
    found = Path(value).expanduser()
    return found if found.is_absolute() else path.parent / found


def student_key(text: str) -> str:
    """A student's identifier as the policy's CSV files are compared: case and
    surrounding spaces aside, without the apostrophe our CSV writing puts
    before a cell that starts like a formula."""
    text = (text or "").strip()
    if text.startswith("'") and text[1:2] in ("=", "+", "-", "@"):
        text = text[1:]
    return text.casefold()
