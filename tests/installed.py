"""What this interpreter has installed, for tests that give another environment some
of it (linked, never downloaded again): a fresh student's Python, the system Python's
venv that other uids read."""
from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def closure(requirements: Iterable[str]) -> list[importlib.metadata.Distribution]:
    """The installed distributions the requirement strings name, and those they require
    in turn, without extras; what is not installed here is left out."""
    installed = {canonicalize_name(d.metadata["Name"]): d
                 for d in importlib.metadata.distributions()}
    wanted = [Requirement(r) for r in requirements]
    found: dict[str, importlib.metadata.Distribution] = {}
    while wanted:
        requirement = wanted.pop()
        name = canonicalize_name(requirement.name)
        if name in found or name not in installed or (
                requirement.marker is not None and not requirement.marker.evaluate({"extra": ""})):
            continue
        found[name] = installed[name]
        wanted += [Requirement(r) for r in installed[name].requires or ()]
    return list(found.values())


def top_level(dist: importlib.metadata.Distribution) -> list[Path]:
    """The entries of site-packages that hold the distribution's files (its packages,
    modules and metadata folder), each a path where it is installed; not its scripts
    (outside), nor a top-level module's bytecode (in the __pycache__ all share)."""
    names = {Path(str(f)).parts[0] for f in dist.files or ()} - {"..", "__pycache__"}
    paths = [Path(dist.locate_file(name)) for name in sorted(names)]
    return [p for p in paths if p.exists() or p.is_symlink()]
