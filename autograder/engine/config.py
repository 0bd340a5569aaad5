"""Per-assignment grading configuration: grading_config/<assignment>.toml."""
from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field

from autograder import registry

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")


@dataclass(frozen=True)
class Limits:
    notebook_seconds: float = 60.0
    """Wall clock for running all the notebook's cells."""
    call_seconds: float = 10.0
    """Wall clock for one call into the student's code from a test."""
    memory_mb: int = 1024
    """Address space the worker may add to what the template already maps."""
    cpu_seconds: int = 300
    """CPU time of the worker process: a backstop behind the wall clocks."""
    disk_mb: int = 64
    """Size of the worker's private working directory, and of any one file."""
    processes: int = 32
    """Processes the worker's own user may run (fork bombs stop here)."""
    restarts: int = 2
    """How often a worker that hung or died is restarted for later tests."""
    test_seconds: float = 10.0
    """The grader's own CPU time for one hidden test (and, apart, for its
    diagnosis): time waiting on the worker does not count. Past it the test
    fails for that submission (engine/driving/budget.py); a test that needs
    more says so with `seconds` in its [tests] entry. Honest figures over the
    corpora of hw1, hw3, hw4 and hw6: a median of 4-18 ms per test, the most
    3.0-3.3 s (the first hw4 test to need its trained reference, which trains
    it once per batch), every other below 1 s."""


LIMIT_RANGES: dict[str, tuple[float, float, str, str]] = {
    "notebook_seconds": (1, 86_400, "seconds", "less gives no notebook time to run"),
    "call_seconds": (0.1, 3_600, "seconds", "less gives no call time to answer"),
    "memory_mb": (64, 1_048_576, "MB", "a worker needs about 64 MB to run a notebook"),
    "cpu_seconds": (1, 86_400, "seconds", "less stops every worker at once"),
    "disk_mb": (1, 1_048_576, "MB", ""),
    "processes": (1, 4_096, "processes", "the worker itself is one"),
    "restarts": (0, 100, "restarts", ""),
    "test_seconds": (0.1, 3_600, "seconds", "less gives no hidden test time to check"),
}
"""Each limit's least and greatest value (inclusive), its unit and why not
less: below the least no submission can be graded (0 s would zero the class,
1 MB or 0 processes would pass for a machine without a sandbox); above the
greatest it is a typo (1e9)."""


def check_limit(name: str, value) -> float | int:
    """`value` as limit `name` holds it (a whole number for the int limits;
    1e3 is one); raises ConfigError naming the limit and its allowed range."""
    low, high, unit, why = LIMIT_RANGES[name]
    whole = isinstance(getattr(Limits, name), int)  # the default's type is the limit's
    allowed = f"{'a whole number' if whole else 'a number'} from {_shown(low)} to " \
              f"{_shown(high)} ({unit})"
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (isinstance(
            value, float) and not (math.isfinite(value) and (value.is_integer() or not whole))):
        raise ConfigError(f"{name} must be {allowed}, got {value!r}")
    if not low <= value <= high:
        reason = f"; {why}" if why and value < low else ""
        raise ConfigError(f"{name} must be {allowed}, got {_shown(value)}{reason}")
    return int(value) if whole else float(value)


def _shown(value: float) -> str:
    """1e9 as 1000000000, 0.1 as 0.1: as a user would write it."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def checked_limits(values: dict) -> dict:
    """`values` (limit name -> value), each through check_limit; ConfigError for
    an unknown name."""
    unknown = sorted(set(values) - set(LIMIT_RANGES))
    if unknown:
        raise ConfigError(f"unknown limits {unknown}; known: {', '.join(LIMIT_RANGES)}")
    return {name: check_limit(name, value) for name, value in values.items()}


@dataclass(frozen=True)
class TestPoints:
    points: float
    visibility: str = "after_published"
    seconds: float | None = None
    """This test's budget of grader time, when not limits.test_seconds."""


@dataclass(frozen=True)
class ManualQuestion:
    """A question graded by hand ([manual.<id>] of the grading config): its
    answer is the notebook's cells after the Markdown cell that holds
    `<!-- free response: <id> -->`; a grader's rubric score (0 to `points`)
    is merged into the gradebooks and the feedback, never into grades.csv."""
    points: float
    numbers: tuple[str, ...] = ()
    """Autograded questions whose per-student numbers (an exam's variants)
    the grader needs beside the answer; only those are shown."""


@dataclass(frozen=True)
class Submit:
    """Where students hand in (the [submit] table), which the notebook's submit
    cell states."""
    to: str = ""
    """"Gradescope", "Canvas" or a URL; "" when the config does not say."""
    keep_name: bool = False
    """Whether the submit cell asks students to keep the file's name (default:
    for a URL, whose intake may look for the handout's name; this grader reads
    any name from Gradescope and Canvas)."""


@dataclass(frozen=True)
class Gradescope:
    """When students see what results.json holds (the [gradescope] table).
    Gradescope shows a test's own visibility over the top level's, and hides the
    total from a student while any test is hidden from them."""
    results: str = "after_published"
    """The top level's visibility: the submission's notes (its output) and, once no
    test is hidden from the student, its total."""
    tests: str = "after_published"
    """The visibility of a test whose [tests] entry gives none (a bare number)."""


MANUAL_ID = re.compile(r"[\w.-]+")
"""What a manual question's id may be: what the free-response marker reads."""
MAX_MANUAL_POINTS = 1000.0
"""More points than this for one question is a typo."""


@dataclass(frozen=True)
class Exam:
    """What makes an assignment an exam (the [exam] table): whom each submission
    is graded as, and which questions are answered in words."""
    identity_fields: tuple[str, ...] = ("sid", "email")
    """The submitter's identities, in order of preference: fields of each user
    in Gradescope's submission metadata (sid, email) or canvas_user_id; the
    notebook's STUDENT_ID must equal one of them."""
    free_response: tuple[str, ...] = ()
    """Questions answered in words, collected for grading by hand (ids of the
    notebook's free-response markers, each declared in [manual])."""


@dataclass(frozen=True)
class Config:
    assignment: str
    title: str
    preload: tuple[str, ...]
    """Modules the template imports once (and the student's code may use)."""
    forbid: tuple[str, ...]
    """Modules the student's code may not import (numpy-only assignments)."""
    limits: Limits
    seed: int
    """Seed for random, numpy and torch before the notebook and each test."""
    tests: dict[str, dict[str, TestPoints]] = field(default_factory=dict)
    """question id -> test function name -> points and visibility, in order."""
    exam: Exam | None = None
    """The [exam] table; None for homework."""
    manual: dict[str, ManualQuestion] = field(default_factory=dict)
    """question id -> a question graded by hand ([manual.<id>]), in order;
    not among `questions`, which are the autograded ones (grades.csv's)."""
    submit: Submit = Submit()
    """Where to hand in ([submit]); the submit cell states it."""
    gradescope: Gradescope = Gradescope()
    """When students see results.json's notes, total and tests ([gradescope])."""

    @property
    def questions(self) -> list[str]:
        return list(self.tests)

    def max_points(self, question: str) -> float:
        return sum(t.points for t in self.tests[question].values())


class ConfigError(Exception):
    pass


def load(assignment: str) -> Config:
    path = registry.get(assignment).config
    if not path.exists():
        known = ", ".join(registry.ids()) or "none"
        raise ConfigError(f"no grading config {path} (known assignments: {known})")
    with open(path, "rb") as f:
        raw = tomllib.load(f)
    meta = raw.get("assignment", {})
    try:
        limits = checked_limits(raw.get("limits", {}))
    except ConfigError as exc:
        raise ConfigError(f"{path}: [limits] {exc}") from None
    shown = _gradescope(path, raw.get("gradescope", {}))
    tests = {q: {name: _points(path, q, name, v, shown.tests) for name, v in cases.items()}
             for q, cases in raw.get("tests", {}).items()}
    exam = _exam(path, raw["exam"]) if "exam" in raw else None
    manual = _manual(path, raw.get("manual", {}), tests, exam)
    return Config(
        assignment=assignment,
        title=meta.get("title", assignment),
        preload=tuple(meta.get("preload", ["numpy"])),
        forbid=tuple(meta.get("forbid", [])),
        limits=Limits(**limits),
        seed=int(meta.get("seed", 0)),
        tests=tests,
        exam=exam,
        manual=manual,
        submit=_submit(path, raw.get("submit", {})),
        gradescope=shown,
    )


def _gradescope(path, table) -> Gradescope:
    """The [gradescope] table: `results` and `tests`, each one of VISIBILITIES."""
    where = f"{path}: [gradescope]"
    if not isinstance(table, dict) or set(table) - {"results", "tests"}:
        raise ConfigError(f"{where} holds `results` and `tests` only, each one of {VISIBILITIES}")
    for key, value in table.items():
        if value not in VISIBILITIES:
            raise ConfigError(f"{where}: {key} must be one of {VISIBILITIES}, got {value!r}")
    return Gradescope(**table)


def _submit(path, table) -> Submit:
    """The [submit] table: `to` (Gradescope, Canvas or an http(s) URL) and `keep_name`."""
    where = f"{path}: [submit]"
    if not isinstance(table, dict) or set(table) - {"to", "keep_name"}:
        raise ConfigError(f"{where} holds `to` (Gradescope, Canvas or a URL) and `keep_name` "
                          "(true or false) only")
    to = table.get("to", "")
    if not isinstance(to, str) or not (to in ("", "Gradescope", "Canvas")
                                       or re.fullmatch(r"https?://\S+", to)):
        raise ConfigError(f"{where}: to must be \"Gradescope\", \"Canvas\" or an http(s) URL, "
                          f"got {to!r}")
    keep = table.get("keep_name", to.startswith("http"))
    if not isinstance(keep, bool):
        raise ConfigError(f"{where}: keep_name must be true or false, got {keep!r}")
    return Submit(to, keep)


def _exam(path, table) -> Exam:
    """The [exam] table: `identity_fields` and `free_response`, each a list of names."""
    where = f"{path}: [exam]"
    if not isinstance(table, dict) or set(table) - {"identity_fields", "free_response"}:
        raise ConfigError(f"{where} holds `identity_fields` (a list of metadata fields such as "
                          "\"sid\", \"email\", \"canvas_user_id\") and `free_response` (a list "
                          "of question ids) only")
    found = {}
    for key, pattern in (("identity_fields", re.compile(r"\w+")), ("free_response", MANUAL_ID)):
        value = table.get(key, getattr(Exam, key))
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, str) and pattern.fullmatch(v) for v in value) \
                or len(set(value)) < len(value):
            raise ConfigError(f"{where}: {key} must be a list of distinct names, got {value!r}")
        found[key] = tuple(value)
    if not found["identity_fields"]:
        raise ConfigError(f"{where}: identity_fields names no field: list at least one")
    return Exam(**found)


def _manual(path, table, tests: dict, exam: Exam | None) -> dict[str, ManualQuestion]:
    """The [manual] table: `<id> = points` or `[manual.<id>]` with points
    (and numbers); an exam's free_response ids must all be among them."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [manual] must be a table of questions")
    found = {}
    for q, value in table.items():
        where = f"{path}: [manual.{q}]"
        if not MANUAL_ID.fullmatch(q):
            raise ConfigError(f"{where}: a manual question's id is letters, digits, _ . - only "
                              "(as in the notebook's <!-- free response: ID --> marker)")
        if q in tests:
            raise ConfigError(f"{where}: {q!r} is also an autograded question ([tests.{q}])")
        value = value if isinstance(value, dict) else {"points": value}
        unknown = sorted(set(value) - {"points", "numbers"})
        if unknown:
            raise ConfigError(f"{where}: unknown keys {unknown}; known: points, numbers")
        points = value.get("points")
        if isinstance(points, bool) or not isinstance(points, (int, float)) \
                or not 0 < points <= MAX_MANUAL_POINTS:
            raise ConfigError(f"{where}: points must be a number above 0 and at most "
                              f"{MAX_MANUAL_POINTS:g}, got {points!r}")
        numbers = value.get("numbers", [])
        if not isinstance(numbers, list) or any(n not in tests for n in numbers):
            raise ConfigError(f"{where}: numbers must list autograded questions "
                              f"([tests.<id>]), got {numbers!r}")
        found[q] = ManualQuestion(float(points), tuple(numbers))
    undeclared = [q for q in (exam.free_response if exam else ()) if q not in found]
    if undeclared:
        raise ConfigError(f"{path}: the free-response questions {undeclared} of [exam] have "
                          "no points: declare each as [manual.<id>] with points = N")
    return found


def _points(path, question, name, value, visibility: str) -> TestPoints:
    if isinstance(value, (int, float)):
        return TestPoints(float(value), visibility)
    seconds = value.get("seconds")
    if seconds is not None:
        try:
            seconds = check_limit("test_seconds", seconds)
        except ConfigError as exc:
            raise ConfigError(f"{path}: {question}.{name}: seconds is its test_seconds: "
                              f"{exc}") from None
    tp = TestPoints(float(value["points"]), value.get("visibility", visibility), seconds)
    if tp.visibility not in VISIBILITIES:
        raise ConfigError(f"{path}: {question}.{name}: visibility must be one of {VISIBILITIES}")
    return tp
