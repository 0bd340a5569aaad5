"""An assignment as the grader sees it: config, hidden tests and reference.

Hidden tests are pytest test modules autograder/<id>/test_*.py, each
declaring `QUESTION = "<stub name>"` (engine/driving/collect.py says what a test may
use: the fixtures `student`, `ref`, `submission`, its module's own fixtures,
parametrize). Their points and visibility come from grading_config/<id>.toml,
which must name exactly the tests that exist: a parametrized test either by
its function's name (its points are split evenly over its cases) or case by
case (`"test_x[small]" = 1`), never both.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
from dataclasses import dataclass
from types import ModuleType

from autograder import registry
from autograder.engine.diagnoses import declared
from autograder.engine.driving import collect
from autograder.engine import config as config_mod
from autograder.engine.config import Config, ConfigError, TestPoints


@dataclass(frozen=True)
class Case:
    question: str
    name: str
    """The test's name: test_x, or test_x[id] for one case of a parametrized test."""
    title: str
    points: float
    visibility: str
    collected: collect.Collected
    seconds: float | None = None
    """Its budget of grader time ([tests] `seconds`); None: limits.test_seconds."""

    @property
    def id(self) -> str:
        return f"{self.question}::{self.name}"

    def call(self, builtins: dict) -> None:
        """Run the test with the grader's fixtures; raises as the test raises."""
        self.collected.call(builtins)


@dataclass(frozen=True)
class LoadedAssignment:
    """An assignment loaded for grading: its config, hidden test cases and
    reference module (its paths: registry.Assignment)."""

    id: str
    config: Config
    cases: tuple[Case, ...]
    reference: ModuleType
    diagnoses: dict = dataclasses.field(default_factory=dict)
    """{question: its Diagnosis entries} from autograder/<id>/diagnoses.py."""

    @property
    def questions(self) -> list[str]:
        return self.config.questions

    @property
    def max_total(self) -> float:
        return sum(c.points for c in self.cases)


def load(assignment_id: str, limits: dict | None = None) -> LoadedAssignment:
    config = config_mod.load(assignment_id)
    if limits:
        config = dataclasses.replace(config, limits=dataclasses.replace(
            config.limits, **config_mod.checked_limits(limits)))
    record = registry.get(assignment_id)  # autograder/<id>/, or a grading host's shipped copy
    package = record.package
    reference = importlib.import_module(f"{package}.reference")
    found: dict[str, list[collect.Collected]] = {}
    for file in record.test_files():
        module = importlib.import_module(f"{package}.{file.stem}")
        question = getattr(module, "QUESTION", None)
        if question is None:
            raise ConfigError(f"{file}: no QUESTION = '<stub name>'")
        found.setdefault(question, []).extend(collect.collect(module))
    return LoadedAssignment(assignment_id, config, _cases(config, found), reference,
                            declared.load(package, reference))


def _cases(config: Config, found: dict[str, list[collect.Collected]]) -> tuple[Case, ...]:
    """The cases in the config's order, each with its points."""
    cases, missing, extra = [], [], []
    for question, tests in config.tests.items():
        collected = found.get(question, [])
        for name, tp in tests.items():
            chosen = [c for c in collected if name in (c.name, c.function)]
            if not chosen:
                extra.append(f"{question}::{name}")
            cases += [_case(question, c, tp, len(chosen) if name == c.function else 1)
                      for c in chosen]
    named = {(c.question, c.name) for c in cases}
    missing = [f"{q}::{c.name}" for q, cs in found.items() for c in cs if (q, c.name) not in named]
    twice = collect.repeated(c.id for c in cases)
    if missing or extra or twice:
        raise ConfigError(f"grading_config/{config.assignment}.toml and the hidden tests "
                          f"disagree: tests without points {missing}, points without tests "
                          f"{extra}" + (f", cases given points twice {twice}" if twice else ""))
    return tuple(cases)


def _case(question: str, c: collect.Collected, tp: TestPoints, share: int) -> Case:
    doc = inspect.getdoc(c.func) or c.function.removeprefix("test_").replace("_", " ")
    title = doc.splitlines()[0] + (f" [{c.name.partition('[')[2]}" if c.name != c.function else "")
    return Case(question, c.name, title, tp.points / share, tp.visibility, c, tp.seconds)
