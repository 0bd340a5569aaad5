"""An assignment as the grader sees it: config, hidden tests and reference.

Hidden tests are ordinary pytest-style modules autograder/<id>/test_*.py,
each declaring `QUESTION = "<stub name>"` and test functions taking the
fixtures `student` (the proxy to the worker), `ref` (the module
autograder/<id>/reference.py) and `submission` (who submitted: id and
Gradescope metadata, for per-student exam variants). Their points and visibility come from
grading_config/<id>.toml, which must name exactly the tests that exist.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
from dataclasses import dataclass
from types import ModuleType

from autograder import registry
from autograder.engine import config as config_mod
from autograder.engine.config import Config, ConfigError

FIXTURES = ("student", "ref", "submission")


@dataclass(frozen=True)
class Case:
    question: str
    name: str
    func: object
    title: str
    points: float
    visibility: str
    fixtures: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.question}::{self.name}"


@dataclass(frozen=True)
class LoadedAssignment:
    """An assignment loaded for grading: its config, hidden test cases and
    reference module (its paths: registry.Assignment)."""

    id: str
    config: Config
    cases: tuple[Case, ...]
    reference: ModuleType

    @property
    def questions(self) -> list[str]:
        return self.config.questions

    @property
    def max_total(self) -> float:
        return sum(c.points for c in self.cases)


def load(assignment_id: str, limits: dict | None = None) -> LoadedAssignment:
    config = config_mod.load(assignment_id)
    if limits:
        config = dataclasses.replace(config, limits=dataclasses.replace(config.limits, **limits))
    record = registry.get(assignment_id)  # autograder/<id>/, or a grading host's shipped copy
    package = record.package
    reference = importlib.import_module(f"{package}.reference")
    found: dict[str, dict[str, object]] = {}
    for file in record.test_files():
        module = importlib.import_module(f"{package}.{file.stem}")
        question = getattr(module, "QUESTION", None)
        if question is None:
            raise ConfigError(f"{file}: no QUESTION = '<stub name>'")
        found.setdefault(question, {}).update(_test_functions(module))
    return LoadedAssignment(assignment_id, config, _cases(config, found), reference)


def _test_functions(module: ModuleType) -> dict[str, object]:
    funcs = {name: f for name, f in vars(module).items()
             if name.startswith("test_") and inspect.isfunction(f)
             and f.__module__ == module.__name__}
    return dict(sorted(funcs.items(), key=lambda kv: kv[1].__code__.co_firstlineno))


def _cases(config: Config, found: dict[str, dict[str, object]]) -> tuple[Case, ...]:
    missing = [f"{q}::{n}" for q, tests in found.items() for n in tests
               if n not in config.tests.get(q, {})]
    extra = [f"{q}::{n}" for q, tests in config.tests.items() for n in tests
             if n not in found.get(q, {})]
    if missing or extra:
        raise ConfigError(f"grading_config/{config.assignment}.toml and the hidden tests "
                          f"disagree: tests without points {missing}, points without tests {extra}")
    cases = []
    for question, tests in config.tests.items():
        for name, tp in tests.items():
            func = found[question][name]
            params = tuple(inspect.signature(func).parameters)
            unknown = set(params) - set(FIXTURES)
            if unknown:
                raise ConfigError(f"{func.__module__}.{name}: unknown fixtures {sorted(unknown)}")
            doc = (inspect.getdoc(func) or name.removeprefix("test_").replace("_", " "))
            cases.append(Case(question, name, func, doc.splitlines()[0], tp.points,
                              tp.visibility, params))
    return tuple(cases)
