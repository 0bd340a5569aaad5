"""Where things live in the repository."""
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


def known_assignments() -> list[str]:
    return sorted(p.stem for p in CONFIG.glob("*.toml"))


def secret_paths() -> list[Path]:
    """Folders a worker must never see (covered inside its mount namespace)."""
    return [PACKAGE, CONFIG, SOLUTIONS, ROOT / "tests", ROOT / ".git"]
