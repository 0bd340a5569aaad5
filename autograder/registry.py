"""Every assignment of the course and every path of each: the one place that
knows them (nbgrader's CourseDirectory).

An assignment is a package autograder/<id>/ holding a reference.py; its other
files live where the course layout puts them:

    solutions/<id>/<id>.py           master (jupytext py:percent)   `build` reads
    assignments/<id>/<id>.ipynb      student notebook                `build` writes
    autograder/<id>/                 hidden tests test_*.py, reference.py, helpers
    autograder/<id>/examples.py      demo submissions (hooks.Examples), optional
    autograder/<id>/reports.py       extra reports (hooks.BatchReports), optional
    examples/<id>/                   the demo submissions `build` writes
    grading_config/<id>.toml         points, visibility, limits, seed
    tests/assignments/corpus/<id>/   correct and buggy variants (the project's tests)
    build/gradescope/<id>.zip        the Gradescope autograder `build` writes

On a grading host of a Dask cluster, the package, config and student notebook
are the copies shipped by the client (autograder/cluster/bundle.py registers
the package with its __grading_config__ and __handout__): `get` returns those
paths.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from autograder import paths

SKIPPED = {"__pycache__", ".pytest_cache", ".ipynb_checkpoints"}


@dataclass(frozen=True)
class Assignment:
    """The paths of one assignment (which may not exist yet: `new` and `build` write them)."""

    id: str
    master: Path
    student_notebook: Path
    hidden_tests: Path
    """The package folder: hidden tests, reference, helpers, examples.py."""
    reference: Path
    examples_module: Path
    reports_module: Path
    examples: Path
    config: Path
    corpus: Path
    gradescope_zip: Path

    @property
    def package(self) -> str:
        """The module name of the package (autograder.<id>)."""
        return f"{paths.PACKAGE.name}.{self.id}"

    @property
    def has_master(self) -> bool:
        return self.master.is_file()

    @property
    def has_examples(self) -> bool:
        return self.examples_module.is_file()

    @property
    def has_reports(self) -> bool:
        return self.reports_module.is_file()

    def test_files(self) -> list[Path]:
        """The hidden test modules, sorted."""
        return sorted(self.hidden_tests.glob("test_*.py"))

    def package_files(self) -> list[Path]:
        """Every file of the package folder (what a Gradescope zip and a cluster
        bundle ship), sorted; caches left out."""
        return shipped_files(self.hidden_tests)


def shipped_files(folder: Path) -> list[Path]:
    """Every file under `folder` that a zip or a bundle ships, sorted: caches
    (SKIPPED folders, compiled .pyc/.pyo) left out."""
    return sorted(p for p in folder.rglob("*")
                  if p.is_file() and not SKIPPED & set(p.relative_to(folder).parts)
                  and p.suffix not in (".pyc", ".pyo"))


def get(assignment_id: str) -> Assignment:
    """The record of `assignment_id`, whether or not its files exist."""
    package = paths.PACKAGE / assignment_id
    config = paths.CONFIG / f"{assignment_id}.toml"
    handout = paths.ASSIGNMENTS / assignment_id / f"{assignment_id}.ipynb"
    shipped = sys.modules.get(f"{paths.PACKAGE.name}.{assignment_id}")
    if getattr(shipped, "__grading_config__", None):  # a grading host's copy
        package, config = Path(shipped.__path__[0]), Path(shipped.__grading_config__)
        handout = Path(shipped.__handout__)
    return Assignment(
        id=assignment_id,
        master=paths.SOLUTIONS / assignment_id / f"{assignment_id}.py",
        student_notebook=handout,
        hidden_tests=package,
        reference=package / "reference.py",
        examples_module=package / "examples.py",
        reports_module=package / "reports.py",
        examples=paths.EXAMPLES / assignment_id,
        config=config,
        corpus=paths.ROOT / "tests" / "assignments" / "corpus" / assignment_id,
        gradescope_zip=paths.ROOT / "build" / "gradescope" / f"{assignment_id}.zip",
    )


def all_assignments() -> list[Assignment]:
    """Every assignment (a package folder with a reference.py), sorted by id."""
    return [get(p.parent.name) for p in sorted(paths.PACKAGE.glob("*/reference.py"))]


def ids() -> list[str]:
    return [a.id for a in all_assignments()]
