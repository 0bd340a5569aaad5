"""Shared fixtures: grading folders of notebooks through the real engine."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

FAST_LIMITS = {"notebook_seconds": 20, "call_seconds": 10, "restarts": 1}


def write_notebook(path: Path, cells: list[str]) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, str(path))
    return path


def grade(assignment: str, folder: Path, out: Path, reports: bool = False,
          diagnose: bool = True, **limits) -> dict:
    """Grade a folder (and, with `reports`, run the report stage after it, as
    `grade` does); return {submission id: SubmissionResult}."""
    from autograder.engine import batch  # here: a conftest importing torch slowed every
    # pytest started on a planted project (tests/test_collection.py) by seconds
    reserved = ()
    if reports:
        from autograder import grade as pipeline
        from autograder.report import run as report_run
        extra = pipeline.assignment_reports(assignment)
        reserved = report_run.reserved_names(assignment, extra)
    result = batch.grade_folder(assignment, folder, out, progress=False,
                                limits={**FAST_LIMITS, **limits}, reserved=reserved,
                                diagnose=diagnose)
    if reports:
        pipeline.report_stage(result, report_run.prepare(out), extra)
    return {r.submission: r for r in result.results}


@pytest.fixture
def grade_notebooks(tmp_path):
    """grade_notebooks(assignment, {id: [cell source, ...]}) -> {id: SubmissionResult}"""
    def run(assignment: str, notebooks: dict[str, list[str]], **limits):
        subs = tmp_path / "submissions"
        subs.mkdir(exist_ok=True)
        for sub_id, cells in notebooks.items():
            write_notebook(subs / f"{sub_id}.ipynb", cells)
        return grade(assignment, subs, tmp_path / "out", **limits)
    return run


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (`--dist loadgroup`, scripts/test.sh), tests that share an
    expensive fixture run in one worker, so that it is made once: tests are grouped by
    every module- or session-scoped fixture of this suite they use, transitively (two
    tests that share any one such fixture share a group). The marks are set before
    pytest-xdist's hook reads them (a wrapper runs first). Every slow test is heavy too,
    so that the fast tier (-m 'not heavy') skips it; only `slow` orders the groups."""
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.heavy)
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    shared = {item: _shared_fixtures(item) for item in items}
    for keys in shared.values():
        for key in keys[1:]:
            parent[root(key)] = root(keys[0])
    groups = {}
    for item, keys in shared.items():
        if keys:
            groups[item] = root(keys[0])
            item.add_marker(pytest.mark.xdist_group(groups[item]))
    result = yield
    if getattr(config.option, "loadgroup", False):  # set in xdist's workers only
        _name_groups(groups)
        items[:] = _slow_groups_first(items, groups)
    return result


def _slow_groups_first(items: list, groups: dict) -> list:
    """The tests in the order the workers take them (scripts/test.sh passes
    --no-loadscope-reorder, so that pytest-xdist keeps it): the groups holding a test
    marked slow first, the longest first, as its `slow(minutes=N)` mark estimates
    (default 1; then the larger), then those holding a heavy test, then the rest, each
    as collected; a test in no group counts as a group of its own. Started last, a long
    group kept one worker busy long after the others had finished: heavy tests of tens of
    seconds (the attack corpus in each sandbox mode, the plugin's hanging question) were
    collected last, and the last minute of a run kept one core idle."""
    group_of = {item: groups.get(item, item) for item in items}
    size: dict[object, int] = {}
    minutes: dict[object, float] = {}
    heavy: set = set()
    for item, group in group_of.items():
        size[group] = size.get(group, 0) + 1
        mark = item.get_closest_marker("slow")
        if mark:
            minutes[group] = max(minutes.get(group, 0), mark.kwargs.get("minutes", 1))
        if item.get_closest_marker("heavy"):
            heavy.add(group)

    def rank(item):
        group = group_of[item]
        if group in minutes:
            return 0, -minutes[group], -size[group]
        return (1 if group in heavy else 2), 0, 0
    return sorted(items, key=rank)  # stable: collection order within a rank


def _name_groups(groups: dict) -> None:
    """pytest-xdist 3.8 tells its scheduler a test's group by appending `@group` to the
    test's id, through an attribute that pytest 9.2 no longer reads (pytest-xdist issue
    1386): every test then ran wherever, and a module's fixture was made on both workers.
    Until pytest-xdist writes the id pytest reads, the id is written here, once."""
    from _pytest.nodeid import NodeId
    for item, group in groups.items():
        if not item.nodeid.endswith(f"@{group}"):
            item._id = NodeId.parse(f"{item.nodeid}@{group}")


def _shared_fixtures(item) -> list[str]:
    """The module- and session-scoped fixtures of this suite that `item` uses, each
    named with what it is made for: its module, and, for the session's `graded` (a
    cache, not a parametrized fixture), the test's assignment."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    keys = []
    for name in item.fixturenames:
        defs = item._fixtureinfo.name2fixturedefs.get(name)
        if not defs or defs[-1].scope not in ("module", "package", "session") \
                or not defs[-1].baseid.startswith("tests"):
            continue  # function-scoped, or pytest's own
        if defs[-1].scope == "module":  # all its parameters too: a group per parameter
            # spread an assignment's tests over the workers, each filling the same
            # in-process caches (built notebooks, loaded references) for them
            keys.append(f"{item.module.__name__}:{name}")
        else:
            keys.append(f"session:{name}:{params.get(name, params.get('assignment_id', ''))}")
    return keys


@pytest.fixture(scope="session")
def graded(tmp_path_factory):
    """Each assignment's corpus graded once per run (tests/assignments/corpus_tools.Graded)."""
    from tests.assignments.corpus_tools import Graded
    return Graded(tmp_path_factory)
