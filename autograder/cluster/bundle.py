"""An assignment as data: what the client ships to every grading host, and
how a host loads it.

`make` (client) takes the files of the assignment's package autograder/<id>/
(hidden tests, reference, helpers), its grading config, the student notebook as
handed out (to recognise an upload of it) and the --limit overrides, plus a
fingerprint of the grading engine and the versions of Python, numpy and torch.
`install` (host) checks those (a host running other grader code or other
libraries could grade differently), writes the files to the host's private
folder and registers that folder as the package autograder.<id> in its process,
so that the hidden tests' absolute imports and every config lookup
(engine/config.py, an exam's settings, the handout) find the shipped copy and
never a stale one on the host.

What must stay true: a host needs the grader (this package) and its
requirements, never the course's files; the client's copy of the assignment
is the one graded.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import sys
import threading
from pathlib import Path, PurePosixPath

from autograder import paths, registry
from autograder.cluster import ClusterError
from autograder.engine import assignment as assignment_mod
from autograder.gradescope import package

CONFIG_NAME = "grading_config.toml"

_installing = threading.Lock()
"""sys.modules belongs to the whole process: one host loads at a time."""


def make(assignment_id: str, limits: dict | None = None) -> dict:
    """The assignment `assignment_id` as plain data (bytes, strings, numbers)."""
    record = registry.get(assignment_id)
    files = {p.relative_to(record.hidden_tests).as_posix(): p.read_bytes()
             for p in record.package_files()}
    config = record.config.read_bytes()
    # the notebook as handed out: a host tells a student who uploaded it so (intake/handout.py)
    handout = record.student_notebook.read_bytes() if record.student_notebook.is_file() else b""
    limits = dict(limits or {})
    digest = hashlib.sha256(json.dumps([assignment_id, limits], sort_keys=True).encode())
    digest.update(config)
    digest.update(hashlib.sha256(handout).digest())
    for name, data in files.items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return {"assignment": assignment_id, "files": files, "config": config, "handout": handout,
            "limits": limits,
            "engine": engine_fingerprint(), "versions": versions(),
            "digest": digest.hexdigest()}


def versions() -> dict[str, str | None]:
    """What else decides a grade: the interpreter and the numeric libraries."""
    found = {"python": "%d.%d" % sys.version_info[:2]}
    for name in ("numpy", "torch"):
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = None
    return found


def engine_fingerprint() -> str:
    """A digest of the grader's code: every .py file of gradescope/package's
    engine_files (the package outside the assignments' folders, which are shipped)."""
    digest = hashlib.sha256()
    for path in package.engine_files():
        if path.suffix == ".py":
            name = path.relative_to(paths.PACKAGE).as_posix()
            digest.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def mismatch(bundle: dict) -> str | None:
    """Why this host must not grade `bundle` (its results could differ), or None."""
    if bundle["engine"] != engine_fingerprint():
        return (f"this host's grader code ({paths.PACKAGE}) differs from the client's; "
                "install the same version of the package on every host")
    ours = versions()
    differ = [f"{k} {ours.get(k)} here, {v} on the client"
              for k, v in bundle["versions"].items() if ours.get(k) != v]
    if differ:
        return (f"this host's versions differ from the client's ({'; '.join(differ)}); "
                "install requirements.txt on every host")
    return None


def install(bundle: dict, folder: Path) -> assignment_mod.LoadedAssignment:
    """Write `bundle` into `folder` (private to this host) and load it."""
    why = mismatch(bundle)
    if why:
        raise ClusterError(why)
    assignment_id = bundle["assignment"]
    package_dir = folder / assignment_id
    for name, data in bundle["files"].items():
        relative = PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts:
            raise ClusterError(f"bundle of {assignment_id}: bad file name {name!r}")
        target = package_dir.joinpath(*relative.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    config = folder / CONFIG_NAME
    config.write_bytes(bundle["config"])
    handout = folder / f"{assignment_id}.ipynb"  # absent when the course has none
    if bundle["handout"]:
        handout.write_bytes(bundle["handout"])
    with _installing:
        _register(assignment_id, package_dir, config, handout, bundle["digest"])
        return assignment_mod.load(assignment_id, bundle["limits"])


def _register(assignment_id: str, package_dir: Path, config: Path, handout: Path,
              digest: str) -> None:
    """Make `package_dir` the package autograder.<id> of this process."""
    name = f"{paths.PACKAGE.name}.{assignment_id}"
    current = sys.modules.get(name)
    other = getattr(current, "__grading_config__", None)
    if other and Path(other).exists() and getattr(current, "__bundle_digest__", "") != digest:
        raise ClusterError(f"another run is grading a different version of {assignment_id} "
                           "on this host; grade one version at a time")
    for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[loaded]  # the host's own copy, or an earlier run's
    spec = importlib.util.spec_from_file_location(
        name, package_dir / "__init__.py", submodule_search_locations=[str(package_dir)])
    module = importlib.util.module_from_spec(spec)
    module.__grading_config__ = str(config)  # read by registry.get
    module.__handout__ = str(handout)
    module.__bundle_digest__ = digest
    sys.modules[name] = module
    spec.loader.exec_module(module)
    setattr(sys.modules[paths.PACKAGE.name], assignment_id, module)
