"""Per-assignment grading configuration: grading_config/<assignment>.toml."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields

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


@dataclass(frozen=True)
class TestPoints:
    points: float
    visibility: str = "after_published"


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
    exam: dict = field(default_factory=dict)
    """The [exam] table (per-student variants, identity fields); {} for homework."""

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
    limit_names = {f.name for f in fields(Limits)}
    unknown = set(raw.get("limits", {})) - limit_names
    if unknown:
        raise ConfigError(f"{path}: unknown limits {sorted(unknown)}")
    tests = {q: {name: _points(path, q, name, v) for name, v in cases.items()}
             for q, cases in raw.get("tests", {}).items()}
    return Config(
        assignment=assignment,
        title=meta.get("title", assignment),
        preload=tuple(meta.get("preload", ["numpy"])),
        forbid=tuple(meta.get("forbid", [])),
        limits=Limits(**raw.get("limits", {})),
        seed=int(meta.get("seed", 0)),
        tests=tests,
        exam=raw.get("exam", {}),
    )


def _points(path, question, name, value) -> TestPoints:
    if isinstance(value, (int, float)):
        return TestPoints(float(value))
    tp = TestPoints(float(value["points"]), value.get("visibility", "after_published"))
    if tp.visibility not in VISIBILITIES:
        raise ConfigError(f"{path}: {question}.{name}: visibility must be one of {VISIBILITIES}")
    return tp
