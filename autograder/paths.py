"""Where the course's top-level folders are; one assignment's paths: registry.py."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "autograder"
SOLUTIONS = ROOT / "solutions"
ASSIGNMENTS = ROOT / "assignments"
CONFIG = ROOT / "grading_config"
EXAMPLES = ROOT / "examples"


def relative(path: Path) -> Path:
    """`path` as shown to the user: relative to the repository when inside it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


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
