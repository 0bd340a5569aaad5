"""Do the package's layers import only what they may? (read from the source,
every import statement, those inside functions included)

* the worker (untrusted side) imports the standard library, numpy, torch,
  the protocol, the kernel helpers and its own modules, nothing else of the
  package;
* the kernel helpers (autograder/kernel) import the standard library and each
  other only, and the protocol the standard library, numpy and torch only:
  with them, it is all the two sides share;
* nothing of the package outside the worker imports it (the engine names its
  entry module, as a string, to start the template);
* the engine imports neither the course's rules, the reports, the exam, the
  cluster, nor what authors of hidden tests import (autograder.testing,
  autograder.checks);
* the course's rules (autograder/course) import neither the reports nor the
  exam: the writers depend on the rules, never the reverse, so a rule can
  change without a writer in the way;
* inside the engine, the intake (engine/intake) imports neither the sandbox
  (engine/isolation) nor the test driving (engine/driving), the sandbox
  imports neither the test driving nor the diagnoses (engine/diagnoses), and
  the diagnoses import neither the driving nor the sandbox; the student proxy
  (engine/driving/student.py) imports nothing of the diagnoses, only the observer
  it reports to (engine/observing.py);
* the Template's parts (engine/isolation: the template process, the spawner,
  the orders, the probe, the meters, the connection) are imported only inside
  engine/isolation: the rest of the package reaches its workers through
  engine/isolation/workers.py alone;
* no module of the package imports itself back through a cycle;
* the reports do not import the exam (an exam's reports reach the report
  stage as a hooks.BatchReports);
* of the engine, the reports and the course's rules import only its public
  data: engine.results (a graded result and its files),
  engine.intake.kept_cells (what grading kept of each notebook, and how to
  read a kept cell), engine.config (the grading config: the points of the
  questions graded by hand, read before grading) and engine.intake.untrusted
  (the cleaner of hostile text, which reads nothing). Never the batch (but as
  an annotation, under TYPE_CHECKING), the intake's readers and parsers, the
  sandbox or the test driving: a report works from the batch it is handed and
  never reads a submission again; the names of the files it writes reach the
  engine from the driver (grade.py);
* hidden tests (autograder/<id>/test_*.py) import of the package only
  autograder.testing and their own assignment's modules;
* an assignment's code reads no private attribute of another object (a handle's
  `_made`): what it may know of the engine's objects, the engine makes public.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from autograder import paths

NUMERIC = {"numpy", "torch"}


def imports(path: Path, package: str | None = None, annotations: bool = True) -> set[str]:
    """Every module name `path` (a module of `package`, by default the one its
    place in the repository says) imports, relative imports resolved;
    without `annotations`, not those under `if TYPE_CHECKING:` (never run)."""
    found = set()
    package = package or ".".join(path.relative_to(paths.ROOT).with_suffix("").parts[:-1])
    tree = ast.parse(path.read_text(), str(path))
    if not annotations:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                node.body = []  # its else, if any, still runs
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            found |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return found


def modules(folder: str) -> list[Path]:
    if not folder:
        return [paths.PACKAGE / "protocol.py"]
    return sorted((paths.PACKAGE / folder).rglob("*.py"))


def ours(name: str) -> bool:
    return name == "autograder" or name.startswith("autograder.")


def outside(name: str, allowed: tuple[str, ...]) -> bool:
    return not any(name == a or name.startswith(a + ".") for a in allowed)


def stdlib_or_numeric(name: str, numeric: bool = True) -> bool:
    top = name.split(".")[0]
    return top in sys.stdlib_module_names or numeric and top in NUMERIC or top == "__future__"


@pytest.mark.parametrize("folder, allowed, numeric", [
    ("worker", ("autograder.protocol", "autograder.kernel", "autograder.worker"), True),
    ("kernel", ("autograder.kernel",), False),
    ("", (), True)])
def test_the_worker_the_kernel_and_the_protocol_import_only_what_both_sides_share(
        folder, allowed, numeric):
    bad = {f"{p.name}: {name}" for p in modules(folder) for name in imports(p)
           if (ours(name) and outside(name, allowed) and name != "autograder")
           or (not ours(name) and not stdlib_or_numeric(name, numeric))}
    assert modules(folder) and not bad, sorted(bad)


def test_nothing_outside_the_worker_imports_it():
    worker = paths.PACKAGE / "worker"
    rest = [p for p in modules(".") if worker not in p.parents]
    bad = {f"{p.relative_to(paths.PACKAGE)}: {name}" for p in rest for name in imports(p)
           if not outside(name, ("autograder.worker",))}
    assert len(rest) > 50 and not bad, sorted(bad)


LAYERS = {
    "engine": ("autograder.course", "autograder.report", "autograder.exam", "autograder.cluster",
               "autograder.testing", "autograder.checks"),
    "course": ("autograder.report", "autograder.exam"),
    "report": ("autograder.exam",),
}
"""Each folder of the package -> what it may not import."""


@pytest.mark.parametrize("folder", LAYERS)
def test_the_engine_the_course_and_the_reports_stay_in_their_layer(folder):
    bad = {f"{p.name}: {name}" for p in modules(folder) for name in imports(p)
           if not outside(name, LAYERS[folder])}
    assert modules(folder) and not bad, sorted(bad)


REPORTS_FROM_THE_ENGINE = ("autograder.engine.results", "autograder.engine.intake.kept_cells",
                           "autograder.engine.config", "autograder.engine.intake.untrusted")


def engine_internals(names: set[str]) -> set[str]:
    """The names of the engine among `names` that a report may not import (the
    packages an allowed module is imported from, `from autograder.engine import
    results`, are not)."""
    packages = {m.rsplit(".", n)[0] for m in REPORTS_FROM_THE_ENGINE for n in range(1, 3)}
    return {n for n in names if not outside(n, ("autograder.engine",))
            and outside(n, REPORTS_FROM_THE_ENGINE) and n not in packages}


@pytest.mark.parametrize("folder", ["report", "course"])
def test_the_reports_and_the_rules_import_only_the_engines_public_data(folder):
    bad = {f"{p.name}: {name}" for p in modules(folder)
           for name in engine_internals(imports(p, annotations=False))}
    assert modules(folder) and not bad, sorted(bad)


@pytest.mark.parametrize("folder, forbidden", [
    ("engine/intake", ("autograder.engine.isolation", "autograder.engine.driving")),
    ("engine/isolation", ("autograder.engine.driving", "autograder.engine.diagnoses")),
    ("engine/diagnoses", ("autograder.engine.driving", "autograder.engine.isolation")),
])
def test_the_engines_rooms_import_only_downwards(folder, forbidden):
    bad = {f"{p.name}: {name}" for p in modules(folder) for name in imports(p)
           if not outside(name, forbidden)}
    assert modules(folder) and not bad, sorted(bad)


def test_the_student_proxy_only_reports_what_a_test_does():
    """engine/driving/student.py imports nothing of the diagnoses: it reports to an
    observer (engine/observing.py), and the diagnoses' Recorder keeps what it needs."""
    student = paths.PACKAGE / "engine" / "driving" / "student.py"
    names = imports(student)
    assert "autograder.engine.observing" in names
    assert not {n for n in names if not outside(n, ("autograder.engine.diagnoses",))}


TEMPLATE_PARTS = tuple(f"autograder.engine.isolation.{name}" for name in (
    "template_process", "template_factory", "spawner", "orders", "probe", "meters", "connection"))


def test_the_templates_parts_are_reached_through_workers_py():
    isolation = paths.PACKAGE / "engine" / "isolation"
    rest = [p for p in modules(".") if isolation not in p.parents]
    bad = {f"{p.relative_to(paths.PACKAGE)}: {name}" for p in rest for name in imports(p)
           if not outside(name, TEMPLATE_PARTS)}
    assert all((isolation / f"{m.rsplit('.', 1)[1]}.py").exists() for m in TEMPLATE_PARTS)
    assert len(rest) > 50 and not bad, sorted(bad)


def module_graph() -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports
    (a name imported from a package counts as that package's module when one
    of that name exists)."""
    names = {".".join(p.relative_to(paths.ROOT).with_suffix("").parts).removesuffix(".__init__"): p
             for p in paths.PACKAGE.rglob("*.py")}
    return {name: {n for n in imports(path, name if path.name == "__init__.py"
                                      else name.rpartition(".")[0])
                   if n in names and n != name}
            for name, path in names.items()}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` (a module's own package, imported for its
    submodule, does not count), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node):
        state[node], path[len(path):] = 1, [node]
        for nxt in sorted(graph.get(node, ())):
            if node.startswith(nxt + "."):
                continue
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_no_module_imports_itself_back():
    graph = module_graph()
    assert "autograder.engine.batch" in graph
    assert cycle(graph) is None, " -> ".join(cycle(graph))
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_hidden_tests_import_only_the_authoring_module():
    from autograder import registry
    bad = set()
    for assignment in registry.all_assignments():
        own = f"autograder.{assignment.id}"
        for test in assignment.test_files():
            bad |= {f"{assignment.id}/{test.name}: {name}" for name in imports(test)
                    if ours(name) and name != "autograder"
                    and outside(name, ("autograder.testing", own))}
    assert not bad, sorted(bad)


def private_reads(path: Path) -> list[str]:
    """`x._name` where x is neither self nor cls, as `line: expression`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__") \
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_an_assignment_reads_no_private_attribute_of_the_engines_objects():
    """Course code (hidden tests, diagnoses, examples) reads what the engine makes public
    (made_by, times_sent for a handle), never its private state: the engine may change
    that without a course noticing."""
    from autograder import registry
    bad = [f"{path.relative_to(paths.PACKAGE)}:{found}"
           for assignment_id in registry.ids()
           for path in sorted((paths.PACKAGE / assignment_id).rglob("*.py"))
           for found in private_reads(path)]
    assert not bad, bad


def test_the_rules_can_fail(tmp_path):
    """The reader sees imports inside functions and relative ones."""
    sample = paths.PACKAGE / "engine" / "batch.py"
    assert "autograder.engine.driving.runner" in imports(sample)
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from autograder.exam import reports\n    from . import report\n")
    found = imports(probe, "autograder.engine")
    assert {"autograder.exam.reports", "autograder.engine.report"} <= found
    assert not outside("autograder.exam.reports", ("autograder.exam",))
    probe.write_text("from autograder.report import gradebook\n"
                     "from autograder.course import roster\n")
    assert [n for n in sorted(imports(probe, "autograder.course"))
            if not outside(n, LAYERS["course"])] == ["autograder.report",
                                                    "autograder.report.gradebook"]
    probe.write_text("from autograder.engine import batch, results\n"
                     "from autograder.engine.intake.kept_cells import cell_source\n"
                     "from autograder.engine.intake.notebook import cell_source as again\n")
    assert engine_internals(imports(probe, "autograder.report")) == {
        "autograder.engine.batch", "autograder.engine.intake.notebook",
        "autograder.engine.intake.notebook.cell_source"}
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from autograder.engine.batch import Batch\n"
                     "else:\n    from autograder.engine import sandbox\n")
    assert engine_internals(imports(probe, "autograder.report", annotations=False)) == {
        "autograder.engine.sandbox"}  # the annotation is not an import, the else is
    probe.write_text("def sign(handle):\n    return handle._made, self._x, cls._y, h.__class__\n")
    assert private_reads(probe) == ["2: handle._made"]
