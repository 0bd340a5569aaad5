"""Code that only a worker runs, kept in real files: sent_to_worker/<name>.py beside
the module that sends it (student.build sends the text; the worker compiles it).

What must stay true: the grader reads these files as text and never imports them
(they are not modules of the package: their folders have no __init__.py), and
each is self-contained (the worker runs it in a fresh scope). Everything they
hold is the student's to read: generic probes, never code that solves a stub.
"""
from __future__ import annotations

from pathlib import Path

FOLDER = "sent_to_worker"


def sent_source(module_file: str, name: str) -> str:
    """The text of sent_to_worker/<name>.py in the folder of `module_file` (the
    sender's __file__: on a grading host, the shipped copy's folder)."""
    if not name.isidentifier():
        raise ValueError(f"a sent file's name is a Python identifier, not {name!r}")
    return (Path(module_file).resolve().parent / FOLDER / f"{name}.py").read_text(encoding="utf-8")
