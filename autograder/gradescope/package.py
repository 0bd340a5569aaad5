"""The Gradescope autograder zip of one assignment.

Gradescope unpacks the zip into /autograder/source, runs setup.sh once while
building the image, then run_autograder for every submission. The zip holds:

    setup.sh, run_autograder        at the root, executable
    install_torch.sh                setup.sh's way to a CPU torch (scripts/)
    autograder/                     the package: engine, worker, this
                                    assignment's hidden tests and reference
                                    (other assignments' folders are left out)
    grading_config/<id>.toml
    requirements.txt, pyproject.toml

Entries are sorted, dated 1980-01-01 and have fixed modes, so the same
sources give the same zip bytes.
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

from autograder import paths, registry
from autograder.writing import atomic_writer, zip_entry

HERE = Path(__file__).resolve().parent
SCRIPTS = ("setup.sh", "run_autograder")
TOP_FILES = ("requirements.txt", "pyproject.toml")
INSTALL_TORCH = paths.ROOT / "scripts" / "install_torch.sh"
"""setup.sh's way to torch (PyTorch's CPU index first): the one scripts/setup.sh uses."""


def engine_files() -> list[Path]:
    """The grader's own code: every file of the package outside the assignments'
    folders, sorted; caches left out. The folders are those under the package
    (never registry.get's paths: on a grading host those are the shipped copy),
    so that a client and a host list the same files (cluster/bundle.py)."""
    assignment_dirs = {paths.PACKAGE / a for a in registry.ids()}
    return [p for p in registry.shipped_files(paths.PACKAGE)
            if not assignment_dirs & set(p.parents)]


def package_files(assignment_id: str) -> list[tuple[str, Path]]:
    """(name in the zip, source file): the grader's own code (the package
    without any assignment's folder), then what the assignment's record names
    (its package files, the student notebook as handed out, to recognise an upload
    of it, and its grading config), then the top-level files."""
    record = registry.get(assignment_id)
    handout = [record.student_notebook] if record.student_notebook.is_file() else []
    files = [(p.relative_to(paths.ROOT).as_posix(), p)
             for p in sorted(engine_files() + record.package_files() + handout)]
    files.append((f"grading_config/{record.config.name}", record.config))
    files += [(name, paths.ROOT / name) for name in TOP_FILES]
    return files


def render_script(name: str, assignment_id: str) -> bytes:
    """A script of the zip for this assignment: its id, and (run_autograder) the
    error result it writes when Python cannot start, run.py's own."""
    from autograder.gradescope import run
    error = json.dumps(run.error_results(assignment_id, run.NOT_STARTED), indent=2)
    return (HERE / name).read_text().replace("@ASSIGNMENT@", assignment_id) \
        .replace("@ERROR_RESULTS@", error).encode()


def write_zip(assignment_id: str, dest: Path, torch_wheel: Path | None = None) -> Path:
    """Write the zip atomically to `dest`; return `dest`. A torch wheel (the
    CPU build) is shipped in wheels/ for setup.sh to install instead of PyPI's."""
    missing = [p for _, p in package_files(assignment_id) if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"cannot package {assignment_id}: missing {missing}")
    with atomic_writer(dest, 0o644) as raw, zipfile.ZipFile(raw, "w") as zf:
        for name in SCRIPTS:
            zf.writestr(zip_entry(name, 0o755), render_script(name, assignment_id))
        for name, path in package_files(assignment_id):
            zf.writestr(zip_entry(name), path.read_bytes())
        zf.writestr(zip_entry(INSTALL_TORCH.name, 0o755), INSTALL_TORCH.read_bytes())
        if torch_wheel is not None:
            zf.write(torch_wheel, f"wheels/{torch_wheel.name}")
    return dest
