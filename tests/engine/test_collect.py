"""Are hidden tests collected as pytest collects them (engine/driving/collect.py), and
given the points the config gives (engine/assignment._cases)?"""
from __future__ import annotations

import sys
import types

import pytest

from autograder.engine.driving import collect
from autograder.engine.assignment import _cases
from autograder.engine import config as config_mod
from autograder.engine.config import Config, ConfigError, Limits


def module(source: str) -> types.ModuleType:
    mod = types.ModuleType("hidden_under_test")
    sys.modules[mod.__name__] = mod
    exec(compile(source, "<hidden test>", "exec"), mod.__dict__)
    return mod


SOURCE = '''
import pytest

log = []

@pytest.fixture
def table(ref):
    log.append("set up")
    yield {"n": ref}
    log.append("torn down")

@pytest.fixture(scope="module")
def expensive():
    log.append("computed once")
    return 7

def test_plain(student):
    student.append("plain")

@pytest.mark.parametrize("n", [1, 2.5, "a b", None, object()])
def test_values(student, n):
    student.append(n)

@pytest.mark.parametrize("x, y", [(1, 2), pytest.param(3, 4, id="named")])
@pytest.mark.parametrize("z", ["p", "q"], ids=["first", "second"])
def test_stacked(student, x, y, z, table, expensive):
    student.append((x, y, z, table["n"], expensive))
'''


def test_cases_are_named_as_pytest_names_them():
    names = [c.name for c in collect.collect(module(SOURCE))]
    assert names == ["test_plain", "test_values[1]", "test_values[2.5]", "test_values[a b]",
                     "test_values[None]", "test_values[n4]", "test_stacked[first-1-2]",
                     "test_stacked[first-named]", "test_stacked[second-1-2]",
                     "test_stacked[second-named]"]


def test_fixtures_parameters_and_teardown():
    mod = module(SOURCE)
    cases = {c.name: c for c in collect.collect(mod)}
    calls: list = []
    for name in ("test_stacked[first-named]", "test_stacked[second-1-2]"):
        cases[name].call({"student": calls, "ref": "R", "submission": None})
    assert calls == [(3, 4, "p", "R", 7), (1, 2, "q", "R", 7)]
    assert mod.log == ["set up", "computed once", "torn down", "set up", "torn down"]


def config(tests: dict) -> Config:
    return Config("demo", "Demo", ("numpy",), (), Limits(), 0,
                  {"q": {k: config_mod.TestPoints(v) for k, v in tests.items()}})


def test_points_split_evenly_or_given_per_case():
    found = {"q": collect.collect(module(SOURCE))}
    even = _cases(config({"test_plain": 1, "test_values": 2.5, "test_stacked": 2}), found)
    assert [c.points for c in even] == [1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
    per_case = {"test_plain": 1, "test_values": 5, "test_stacked[first-1-2]": 1,
                "test_stacked[first-named]": 2, "test_stacked[second-1-2]": 3,
                "test_stacked[second-named]": 4}
    points = {c.name: c.points for c in _cases(config(per_case), found)}
    assert points["test_stacked[second-named]"] == 4 and points["test_values[n4]"] == 1


def test_a_config_that_misses_or_doubles_a_case_is_refused():
    found = {"q": collect.collect(module(SOURCE))}
    with pytest.raises(ConfigError, match=r"tests without points \['q::test_stacked\[second"):
        _cases(config({"test_plain": 1, "test_values": 1, "test_stacked[first-1-2]": 1,
                       "test_stacked[first-named]": 1}), found)
    with pytest.raises(ConfigError, match="given points twice"):
        _cases(config({"test_plain": 1, "test_values": 1, "test_stacked": 1,
                       "test_stacked[first-named]": 1}), found)


@pytest.mark.parametrize("source, message", [
    ("def test_a(student, nothing): pass", "unknown fixture 'nothing'"),
    ("import pytest\n@pytest.fixture(scope='session')\ndef f(student): return 1\n"
     "def test_a(f): pass", "cannot take"),
    ("import pytest\n@pytest.fixture(params=[1, 2])\ndef f(): return 1\n"
     "def test_a(f): pass", "params= and autouse="),
    ("import pytest\n@pytest.mark.parametrize('n', [1, '1'])\ndef test_a(n): pass",
     "named alike"),
])
def test_what_the_grader_cannot_run_is_refused_when_loading(source, message):
    with pytest.raises(ConfigError, match=message):
        collect.collect(module(source))
