"""pytest runs an assignment's hidden tests against one notebook:

    pytest autograder/hw1_attention --notebook path/to/submission.ipynb [-k NAME] [-x] [--pdb]

The notebook runs in a sandboxed worker exactly as `grade` runs it (the same
template, limits and seed); the tests are the grader's cases, collected by
engine/driving/collect.py and called by engine/runner.call_case, so pytest and the
grader run the same tests with the same fixtures and points. A failing test
shows its traceback (the student's message is its last line); the summary
gives the points of each test and the total.

Registered by autograder/conftest.py, which pytest loads for any path under
autograder/ (no -p flag, no install step). What must stay true: nothing here
decides a score; a test passes in pytest exactly when the grader gives it
its points.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from autograder import paths, registry
from autograder.engine import assignment as assignment_mod

SESSIONS = pytest.StashKey[dict]()
"""Per pytest session: assignment id -> its Notebook (worker, result)."""


def pytest_addoption(parser) -> None:
    group = parser.getgroup("autograder", "hidden tests against one notebook")
    group.addoption("--notebook", type=Path, default=None, metavar="PATH",
                    help="the notebook (.ipynb, or an otter export .zip) the hidden tests of "
                         "autograder/<id>/ run against, in a sandboxed worker")
    group.addoption("--unsafe-no-sandbox", action="store_true", default=False,
                    help="run the notebook even where no sandbox works (see grade --help)")


def pytest_configure(config) -> None:
    """Hidden tests without --notebook, or with one that is missing, unreadable
    or no notebook, are a usage error: one line, said before collecting (not a
    traceback per test)."""
    config.stash[SESSIONS] = {}
    notebook = config.getoption("notebook")
    problem = notebook_problem(notebook) if notebook is not None else None
    if problem:
        raise pytest.UsageError(f"--notebook {notebook} {problem}")
    if notebook is None:
        for arg in config.args:
            path = Path(str(arg).split("::")[0]).resolve()
            inside = path.relative_to(paths.PACKAGE).parts if path.is_relative_to(
                paths.PACKAGE) else ()
            if inside and _assignment_in(paths.PACKAGE / inside[0]):
                raise pytest.UsageError(f"{arg} holds hidden tests: give the notebook to run "
                                        "them against, --notebook PATH.ipynb")


def notebook_problem(path: Path) -> str | None:
    """Why `path` cannot be the notebook the hidden tests run against, to follow
    its name in a sentence; None when it can (a folder is taken as `grade` takes
    one entry: the notebook inside)."""
    from autograder.engine.intake.notebook import MAX_NOTEBOOK_BYTES, NotebookError, parse_cells
    if not path.exists():
        return "does not exist: give the path of a .ipynb notebook"
    if path.is_dir():
        return None
    if not path.is_file():
        return "is not a regular file: give a .ipynb notebook"
    if path.suffix.lower() not in (".ipynb", ".zip"):
        return "is not a notebook: give a .ipynb file (or the .zip an otter export makes)"
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_NOTEBOOK_BYTES + 1)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or type(exc).__name__})"
    if path.suffix.lower() == ".zip":
        return None if zipfile.is_zipfile(path) else "is not a zip file"
    try:
        parse_cells(raw)
    except NotebookError as exc:
        return f"is not a notebook that can be read: {exc}"
    return None


def pytest_pycollect_makemodule(module_path: Path, parent):
    """An assignment's test module becomes its grader cases; any other module is pytest's."""
    record = _assignment_of(Path(module_path))
    if record is None:
        return None
    if parent.config.getoption("notebook") is None:
        raise pytest.UsageError(f"{paths.relative(Path(module_path))} holds hidden tests: give "
                                "the notebook to run them against, --notebook PATH.ipynb")
    return HiddenTestFile.from_parent(parent, path=Path(module_path))


def _assignment_of(path: Path) -> registry.Assignment | None:
    """The assignment whose hidden test module `path` is, if it is one."""
    return _assignment_in(path.resolve().parent) if path.name.startswith("test_") else None


def _assignment_in(folder: Path) -> registry.Assignment | None:
    if folder.parent != paths.PACKAGE:
        return None
    record = registry.get(folder.name)
    return record if record.reference.is_file() else None


class HiddenTestFile(pytest.File):
    def collect(self):
        notebook = Notebook.of(self.config, self.path.parent.name)
        for case in notebook.assignment.cases:
            if Path(case.collected.func.__code__.co_filename).resolve() == self.path.resolve():
                yield HiddenTest.from_parent(self, name=case.name, case=case, notebook=notebook)


class HiddenTest(pytest.Item):
    def __init__(self, *, case, notebook, **kwargs):
        super().__init__(**kwargs)
        self.case, self.notebook = case, notebook
        self.user_properties.append(("max_points", case.points))
        self.order = notebook.assignment.cases.index(case)
        self.user_properties.append(("order", self.order))

    def runtest(self) -> None:
        from autograder.engine.driving.budget import GraderOverrun, overrun_message
        from autograder.engine.driving.runner import call_case, stopped_by
        skipped = self.notebook.stalled.skipped(self.case)
        if skipped:  # the grader's rule: this test gets no points, as in `grade`
            pytest.fail(skipped, pytrace=False)
        try:
            call_case(self.case, self.notebook.session())
        except GraderOverrun as exc:  # its budget of grader time: as `grade` says it
            pytest.fail(overrun_message(exc.seconds), pytrace=False)
        except Exception as exc:
            self.notebook.stalled.record(self.case, stopped_by(exc))
            raise
        self.user_properties.append(("points", self.case.points))

    def reportinfo(self):
        code = self.case.collected.func.__code__
        return self.path, code.co_firstlineno - 1, f"{self.case.id} ({self.case.points:g} points)"


class Notebook:
    """One notebook's grader and worker for the whole pytest session, started
    at its first test."""

    def __init__(self, config, assignment_id: str):
        from autograder.engine.driving.runner import Stalled
        from autograder.engine.grader import Grader
        self.path = config.getoption("notebook").resolve()
        self.grader = Grader(assignment_mod.load(assignment_id), [self.path.parent],
                             allow_unsafe=config.getoption("unsafe_no_sandbox"))
        self.assignment = self.grader.assignment
        self.stalled = Stalled()
        """Questions whose later tests are not run (engine/runner.Stalled)."""
        self._session = self.result = None

    @classmethod
    def of(cls, config, assignment_id: str) -> "Notebook":
        sessions = config.stash[SESSIONS]
        if assignment_id not in sessions:
            sessions[assignment_id] = cls(config, assignment_id)
        return sessions[assignment_id]

    def session(self):
        if self._session is None:
            self._session = self._start()
        return self._session

    def _start(self):
        from autograder.engine import batch
        from autograder.engine.intake import foreign, handout, submissions
        from autograder.engine.driving import runner
        from autograder.engine.intake.notebook import code_cells, parse_cells
        path = self.path
        entries, _ = submissions.discover(path)
        if len(entries) != 1:
            raise pytest.UsageError(f"--notebook {path}: not one notebook")
        self.result = batch.new_result(entries[0], self.assignment.id)
        raw, _ = submissions.read_notebook_bytes(entries[0], self.assignment.id, self.result.notes)
        cells = parse_cells(raw)
        foreign.check(cells, self.assignment.id, self.result)
        handout.check(cells, self.assignment.id, self.result)
        return runner.open_session(self.grader.start(), code_cells(cells), self.result)

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
        self.grader.close()


def pytest_collection_modifyitems(items) -> None:
    """Hidden tests run in the grader's order (the config's), whatever the files'
    order: a test may leave the notebook's namespace as the next expects (a lent
    function in place of the student's)."""
    where = [i for i, item in enumerate(items) if isinstance(item, HiddenTest)]
    ordered = sorted((items[i] for i in where), key=lambda item: item.order)
    for i, item in zip(where, ordered):
        items[i] = item


def pytest_sessionfinish(session) -> None:
    for notebook in session.config.stash.get(SESSIONS, {}).values():
        notebook.close()


def pytest_terminal_summary(terminalreporter) -> None:
    """Points per test, the total, and what the notebook's run noted."""
    reports = [r for r in terminalreporter.getreports("passed") + terminalreporter.getreports(
        "failed") if r.when == "call" and dict(r.user_properties).get("max_points") is not None]
    if not reports:
        return
    terminalreporter.section("points")
    earned = total = 0.0
    for r in sorted(reports, key=lambda r: dict(r.user_properties)["order"]):
        props = dict(r.user_properties)
        got = props.get("points", 0.0) if r.passed else 0.0
        earned, total = earned + got, total + props["max_points"]
        terminalreporter.write_line(f"{got:>6g} / {props['max_points']:<4g} {r.nodeid}")
    terminalreporter.write_line(f"total: {earned:g} / {total:g}")
    for notebook in terminalreporter.config.stash.get(SESSIONS, {}).values():
        for note in (notebook.result.notes if notebook.result else []):
            terminalreporter.write_line(f"note: {note}")
