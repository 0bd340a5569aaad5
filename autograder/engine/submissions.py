"""Finding the submissions in a folder and the notebook inside each.

An entry is a .ipynb file, a folder holding one notebook, or a .zip (an
otter export, a download from an LMS). Zips are read member by member with
sizes bounded; nothing is extracted, so paths like ../x in a zip are inert.
"""
from __future__ import annotations

import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from autograder.engine import gradescope_export
from autograder.engine.notebook import MAX_NOTEBOOK_BYTES

IGNORED_DIRS = {".ipynb_checkpoints", "__MACOSX", ".git"}


@dataclass
class Entry:
    id: str
    path: Path
    notes: list[str] = field(default_factory=list)


class SubmissionError(Exception):
    """The entry holds no gradable notebook; the message is for the student."""


def discover(folder: Path) -> tuple[list[Entry], list[str]]:
    """Submission entries, sorted by id, and warnings about skipped files."""
    entries, warnings = [], []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.name == gradescope_export.EXPORT_METADATA:
            continue  # hidden files; a Gradescope export's metadata (read per entry)
        if path.is_dir() or path.suffix.lower() in (".ipynb", ".zip"):
            stem = path.name if path.is_dir() else path.stem
            entries.append(Entry(safe_id(stem), path))
        else:
            warnings.append(f"skipped {path.name}: not a .ipynb, .zip or folder")
    _disambiguate(entries)
    return entries, warnings


def safe_id(name: str) -> str:
    """A printable id usable as a folder name (undecodable bytes, separators replaced)."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    text = re.sub(r"[\x00-\x1f/\\\ufffd]", "_", text).strip() or "_"
    return "_" + text if text.startswith(".") else text


def _disambiguate(entries: list[Entry]) -> None:
    by_id: dict[str, list[Entry]] = {}
    for e in entries:
        by_id.setdefault(e.id, []).append(e)
    for same in by_id.values():
        if len(same) > 1:
            for e in same:
                e.id = safe_id(e.path.name)
                others = ", ".join(o.path.name for o in same if o is not e)
                e.notes.append(f"another submission has the same name ({others}); "
                               f"this one is graded as '{e.id}'")


def read_notebook_bytes(entry: Entry, assignment: str) -> tuple[bytes, str]:
    """The notebook's bytes and the name it had inside the entry."""
    path = entry.path
    if path.is_dir():
        found = [p for p in sorted(path.rglob("*.ipynb"))
                 if not IGNORED_DIRS & set(p.relative_to(path).parts)]
        chosen = _choose([str(p.relative_to(path)) for p in found], assignment)
        file = path / chosen
        if file.stat().st_size > MAX_NOTEBOOK_BYTES:
            raise SubmissionError(f"{chosen} is larger than {MAX_NOTEBOOK_BYTES // 2**20} MB")
        return file.read_bytes(), chosen
    if path.suffix.lower() == ".zip":
        return _from_zip(path, assignment)
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        raise SubmissionError(f"the notebook is larger than {MAX_NOTEBOOK_BYTES // 2**20} MB")
    return path.read_bytes(), path.name


def read_metadata(entry: Entry) -> dict:
    """Gradescope's submission_metadata.json beside the notebook, parsed as
    plain JSON (never evaluated), else the entry's record in the
    submission_metadata.yml of a Gradescope export it sits in; {} when
    absent or unreadable."""
    path = entry.path / "submission_metadata.json"
    if not entry.path.is_dir():
        return {}
    if not path.is_file():
        return gradescope_export.metadata_for(entry.path)
    if path.stat().st_size > 2**20:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError):
        entry.notes.append("submission_metadata.json could not be read; ignored")
        return {}
    return data if isinstance(data, dict) else {}


def _from_zip(path: Path, assignment: str) -> tuple[bytes, str]:
    try:
        with zipfile.ZipFile(path) as zf:
            members = {i.filename: i for i in zf.infolist() if not i.is_dir()
                       and i.filename.lower().endswith(".ipynb")
                       and not IGNORED_DIRS & set(PurePosixPath(i.filename).parts)}
            chosen = _choose(sorted(members), assignment)
            info = members[chosen]
            if info.file_size > MAX_NOTEBOOK_BYTES:
                raise SubmissionError(f"{chosen} in the zip is larger than "
                                      f"{MAX_NOTEBOOK_BYTES // 2**20} MB")
            with zf.open(info) as f:
                data = f.read(MAX_NOTEBOOK_BYTES + 1)  # bounded even if the header lies
            if len(data) > MAX_NOTEBOOK_BYTES:
                raise SubmissionError(f"{chosen} in the zip is too large")
            return data, chosen
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, RuntimeError,
            NotImplementedError) as exc:
        raise SubmissionError(f"the zip file could not be read ({exc})") from None


def _choose(names: list[str], assignment: str) -> str:
    if len(names) == 1:
        return names[0]
    if not names:
        raise SubmissionError("no .ipynb notebook found in the submission")
    preferred = [n for n in names if PurePosixPath(n).stem == assignment]
    if len(preferred) == 1:
        return preferred[0]
    raise SubmissionError(f"found {len(names)} notebooks ({', '.join(names[:5])}); "
                          f"submit one, or name it {assignment}.ipynb")
