"""What must never leave the grader: the lines of every reference solution
that students cannot already read in their own notebooks."""
from __future__ import annotations

import functools

import nbformat

from autograder import paths

MIN_LENGTH = 26  # shorter lines are idioms any code has ("return out", "import torch")


@functools.lru_cache(maxsize=None)
def secret_lines() -> tuple[str, ...]:
    """Lines of autograder/*/reference.py (stripped, at least MIN_LENGTH long)
    that appear in no student notebook (assignments/*/*.ipynb)."""
    public = set()
    for path in paths.ASSIGNMENTS.glob("*/*.ipynb"):
        for cell in nbformat.read(path, as_version=4).cells:
            public.update(line.strip() for line in cell.source.splitlines())
    lines = set()
    for path in paths.PACKAGE.glob("*/reference.py"):
        lines.update(line.strip() for line in path.read_text().splitlines()
                     if len(line.strip()) >= MIN_LENGTH)
    return tuple(sorted(lines - public))


def leaked(text: str) -> list[str]:
    """The secret lines that occur in `text`."""
    return [line for line in secret_lines() if line in text]
