"""The Python paths a worker may read: the template's interpreter, standard
library and site-packages, less every one that is or holds a secret folder.

The template reports its candidates once (worker/template.py); the grader
chooses from them for each worker's spec (engine/isolation/spawner.py) and
judges the modes' needs on them (engine/isolation/sandbox.py). What must
stay true: no chosen path is or contains a path of `hidden`.
"""
from __future__ import annotations

import os
import sys


def python_candidates() -> list[str]:
    """Where this process's interpreter, standard library and site-packages
    live (each also as its real path)."""
    found = {sys.prefix, sys.base_prefix, *(p for p in sys.path if p and os.path.isdir(p))}
    return sorted({os.path.realpath(p) for p in found} | found)


def python_paths(hidden: list[str], candidates: list[str] | None = None) -> list[str]:
    """The Python paths (`candidates`, by default this process's) that are not
    and hold no secret folder of `hidden` (the repository root on sys.path,
    for instance: the worker already imported what it needs)."""
    return sorted(p for p in (python_candidates() if candidates is None else candidates)
                  if not any(h == p or h.startswith(p.rstrip("/") + "/") for h in hidden))
