"""Where things live in the repository."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "autograder"
SOLUTIONS = ROOT / "solutions"
ASSIGNMENTS = ROOT / "assignments"
CONFIG = ROOT / "grading_config"
EXAMPLES = ROOT / "examples"


def hidden_tests(assignment: str) -> Path:
    """The folder holding an assignment's hidden tests and reference solution."""
    return PACKAGE / assignment


def master(assignment: str) -> Path:
    """The master notebook (jupytext py:percent) `build` reads."""
    return SOLUTIONS / assignment / f"{assignment}.py"


def student_notebook(assignment: str) -> Path:
    """The student notebook `build` writes and students receive."""
    return ASSIGNMENTS / assignment / f"{assignment}.ipynb"


def config(assignment: str) -> Path:
    """The grading config (points, visibility, limits, seed): grading_config/<id>.toml,
    or, on a grading host of a cluster, the copy shipped with the assignment's
    package (autograder/cluster/bundle.py sets the loaded package's __grading_config__)."""
    package = sys.modules.get(f"{PACKAGE.name}.{assignment}")
    shipped = getattr(package, "__grading_config__", None)
    return Path(shipped) if shipped else CONFIG / f"{assignment}.toml"


def relative(path: Path) -> Path:
    """`path` as shown to the user: relative to the repository when inside it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def known_assignments() -> list[str]:
    return sorted(p.stem for p in CONFIG.glob("*.toml"))


PUBLIC_DIRS = {"assignments", "docs", "scripts"}
"""Top-level folders a worker may see; every other one may hold secrets
(hidden tests, solutions, example submissions, built zips, grading output)."""


def secret_paths() -> list[Path]:
    """Folders a worker must never see. The worker's root is an allowlist that
    holds none of them; this list keeps a Python path that contains one (the
    repository root on sys.path) out of that allowlist. The virtual
    environment is not secret: the worker's Python lives there."""
    venv = Path(sys.prefix).resolve()
    return sorted(p for p in ROOT.iterdir() if p.is_dir() and p.name not in PUBLIC_DIRS
                  and p.resolve() != venv and p.resolve() not in venv.parents)
