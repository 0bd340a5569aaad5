"""Hidden tests as pytest writes them: collected and called here, for the
grader's runner and for the pytest plugin alike (autograder/conftest.py),
so that both run the same tests with the same fixtures.

A test module autograder/<id>/test_*.py declares QUESTION = "<stub>" and
test functions (test_*, in the order of the file). A test takes fixtures by
name: the grader's own (`student`, `ref`, `submission`; see BUILTIN) and any
@pytest.fixture function of its module (function scope, recomputed for each
test; scope="module" or "session": computed once per grading run, and then
it may not take `student` or `submission`; a generator fixture's code after
its yield runs when the test ends). @pytest.mark.parametrize (stacked, with
ids= or pytest.param(..., id=...)) makes one case per parameter set, named
test_name[id] as pytest names it (ids of plain values are the values;
others are argname + index).

What must stay true: collecting only reads the module (no test runs), and
calling a case never needs pytest's own machinery, so that grading threads
can call cases concurrently.
"""
from __future__ import annotations

import collections
import functools
import inspect
import itertools
import threading
from dataclasses import dataclass, field
from types import ModuleType

from autograder.engine.config import ConfigError

BUILTIN = ("student", "ref", "submission")
"""The grader's fixtures: the notebook's namespace in a worker (engine.driving.student.Student),
the module autograder/<id>/reference.py, and who submitted (results.SubmissionResult)."""
PER_SUBMISSION = {"student", "submission"}
SHARED_SCOPES = ("module", "package", "session")


@dataclass(frozen=True)
class Collected:
    """One case of a test function: its name (test_x or test_x[id]) and parameters."""

    function: str
    name: str
    func: object
    params: dict
    fixtures: "Fixtures"

    def call(self, builtins: dict) -> None:
        """Run the case with the grader's fixtures `builtins`; raises as the test raises."""
        self.fixtures.call(self.func, self.params, builtins)


@dataclass
class Fixtures:
    """The @pytest.fixture functions of one test module, resolved by name."""

    module: str
    defs: dict = field(default_factory=dict)
    """name -> (function, scope)."""
    shared: dict = field(default_factory=dict)
    """Values of module- and session-scoped fixtures, computed once."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, func, params: dict, builtins: dict) -> None:
        teardowns: list = []
        try:
            func(**self._arguments(func, params, builtins, teardowns, ()))
        finally:
            for gen in reversed(teardowns):
                _finish(gen)

    def _arguments(self, func, params, builtins, teardowns, chain) -> dict:
        return {name: params[name] if name in params else
                self._value(name, builtins, teardowns, chain)
                for name in argument_names(func)}

    def _value(self, name, builtins, teardowns, chain):
        if name in builtins:
            return builtins[name]
        if name in chain:
            raise ConfigError(f"{self.module}: fixture {name} depends on itself")
        func, scope = self.defs[name]
        if scope in SHARED_SCOPES:
            with self.lock:  # one computation per run, whichever thread asks first
                if name not in self.shared:
                    value = func(**self._arguments(func, {}, {}, [], chain + (name,)))
                    self.shared[name] = next(value) if inspect.isgenerator(value) else value
                return self.shared[name]
        value = func(**self._arguments(func, {}, builtins, teardowns, chain + (name,)))
        if inspect.isgenerator(value):
            teardowns.append(value)
            return next(value)
        return value


@functools.cache
def argument_names(func) -> tuple[str, ...]:
    """The names a test or fixture function takes (read once: tests are called
    for every submission)."""
    return tuple(inspect.signature(func).parameters)


def _finish(gen) -> None:
    """The code after a generator fixture's yield."""
    try:
        next(gen)
    except StopIteration:
        return
    raise ConfigError(f"fixture {gen.__name__} yields more than once")


def collect(module: ModuleType) -> list[Collected]:
    """Every case of the module's test functions, in the order of the file."""
    fixtures = Fixtures(module.__name__, _fixture_defs(module))
    funcs = [f for name, f in vars(module).items()
             if name.startswith("test_") and inspect.isfunction(f)
             and f.__module__ == module.__name__]
    cases = []
    for func in sorted(funcs, key=lambda f: f.__code__.co_firstlineno):
        _check_fixtures(func, fixtures)
        for case_id, params in expand(func):
            name = f"{func.__name__}[{case_id}]" if case_id else func.__name__
            cases.append(Collected(func.__name__, name, func, params, fixtures))
    dupes = repeated(c.name for c in cases)
    if dupes:
        raise ConfigError(f"{module.__name__}: cases named alike {dupes}: give them ids=")
    return cases


def repeated(names) -> list[str]:
    """The names that occur more than once, sorted."""
    return sorted(n for n, count in collections.Counter(names).items() if count > 1)


def _fixture_defs(module: ModuleType) -> dict:
    """name -> (function, scope) for each @pytest.fixture of the module."""
    defs = {}
    for value in vars(module).values():
        marker = getattr(value, "_fixture_function_marker", None)  # pytest's FixtureFunctionDefinition
        if marker is None:
            continue
        name = marker.name or value.name
        if marker.params is not None or marker.autouse:
            raise ConfigError(f"{module.__name__}: fixture {name}: params= and autouse= "
                              "are not supported; parametrize the test instead")
        if name in BUILTIN:
            raise ConfigError(f"{module.__name__}: fixture {name} hides the grader's own")
        func = value._get_wrapped_function()
        per_submission = set(argument_names(func)) & PER_SUBMISSION
        if marker.scope in SHARED_SCOPES and per_submission:
            raise ConfigError(f"{module.__name__}: fixture {name} (scope={marker.scope}) cannot "
                              f"take {sorted(per_submission)}: they change per submission")
        defs[name] = (func, marker.scope)
    return defs


def _check_fixtures(func, fixtures: Fixtures) -> None:
    """Every argument is a parameter, a grader fixture or a fixture of the module."""
    params = set(itertools.chain.from_iterable(_argnames(m) for m in _parametrize(func)))
    for name in argument_names(func):
        if name not in params and name not in BUILTIN and name not in fixtures.defs:
            raise ConfigError(f"{func.__module__}.{func.__name__}: unknown fixture {name!r}")


def _parametrize(func) -> list:
    """The function's parametrize marks, in pytest's order (the decorator nearest the
    function first)."""
    return [m for m in getattr(func, "pytestmark", []) if m.name == "parametrize"]


def _argnames(mark) -> list[str]:
    names = mark.args[0] if mark.args else mark.kwargs["argnames"]
    return [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)


def expand(func) -> list[tuple[str, dict]]:
    """[(id, {argname: value})] of each parameter set; [("", {})] when not parametrized."""
    per_mark = [_mark_cases(m) for m in _parametrize(func)]
    if not per_mark:
        return [("", {})]
    cases = []
    for combo in itertools.product(*per_mark):
        cases.append(("-".join(i for i, _ in combo),
                      {k: v for _, params in combo for k, v in params.items()}))
    return cases


def _mark_cases(mark) -> list[tuple[str, dict]]:
    from pytest import ParameterSet  # marks exist only where a test module imported pytest
    names = _argnames(mark)
    values = mark.args[1] if len(mark.args) > 1 else mark.kwargs["argvalues"]
    ids = mark.kwargs.get("ids")
    cases = []
    for index, value in enumerate(values):
        explicit = None
        if isinstance(value, ParameterSet):
            explicit, row = value.id, tuple(value.values)
        else:
            row = tuple(value) if len(names) > 1 else (value,)
        given = ids(row[0] if len(row) == 1 else row) if callable(ids) else \
            (ids[index] if ids is not None else None)
        case_id = explicit or (str(given) if given is not None else
                               "-".join(_value_id(v, n, index) for n, v in zip(names, row)))
        cases.append((case_id, dict(zip(names, row))))
    return cases


def _value_id(value, argname: str, index: int) -> str:
    """pytest's id of one value: plain values as themselves, others argname + index."""
    if isinstance(value, str):
        return value.encode("unicode_escape").decode("ascii")
    if value is None or isinstance(value, (bool, int, float, complex)):
        return str(value)
    name = getattr(value, "__name__", None)
    if isinstance(name, str) and (inspect.isclass(value) or inspect.isfunction(value)):
        return name
    return f"{argname}{index}"
