"""Finding the submissions in a folder and the notebook inside each.

An entry is a .ipynb file, a folder holding one notebook, or a .zip (an
otter export, a download from an LMS). Everything in it is hostile input:
files are read through engine.files (no link followed, regular files only,
sizes bounded while reading); zips are read member by member, nothing is
extracted, so paths like ../x in a zip are inert. Ids never collide with
each other (also ignoring case) nor with a file `grade` writes beside them.
Who submitted and when comes only from the LMS's own files (a Gradescope
export's submission_metadata.yml, or what run-gradescope was told), never
from a file inside a submission.
"""
from __future__ import annotations

import os
import re
import stat
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from autograder.engine import files, gradescope_export, untrusted
from autograder.engine.notebook import MAX_NOTEBOOK_BYTES
from autograder.engine.results import OUTPUT_NAMES

UPLOADED_METADATA = "submission_metadata.json"
"""Gradescope's metadata file name: inside a submission it is the student's
upload, so it is never read there."""


@dataclass
class Entry:
    id: str
    path: Path
    notes: list[str] = field(default_factory=list)
    metadata: dict = field(default_factory=dict)
    """What the LMS says about this submission (users, created_at), from its
    own files only; {} when it says nothing."""


class SubmissionError(Exception):
    """The entry holds no gradable notebook; the message is for the student."""


def discover(folder: Path) -> tuple[list[Entry], list[str]]:
    """Submission entries, sorted by id, and warnings about skipped files."""
    entries, warnings = [], []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.name == gradescope_export.EXPORT_METADATA:
            continue  # hidden files; a Gradescope export's metadata (read per entry)
        mode = os.lstat(path).st_mode
        notebook_or_zip = path.suffix.lower() in (".ipynb", ".zip")
        if stat.S_ISDIR(mode) or stat.S_ISLNK(mode) or notebook_or_zip:
            stem = path.stem if notebook_or_zip else path.name
            entries.append(Entry(safe_id(stem), path, _refused_inside(path, mode),
                                 gradescope_export.metadata_for(path)))
        else:
            warnings.append(f"skipped {safe_id(path.name)}: not a .ipynb, .zip or folder")
    _assign_ids(entries)
    uploaded = [e.id for e in entries if os.path.lexists(e.path / UPLOADED_METADATA)]
    if uploaded:
        warnings.append(f"ignored {UPLOADED_METADATA} inside {len(uploaded)} submissions "
                        f"({', '.join(uploaded[:5])}): a student can upload that file; who "
                        "submitted and when come only from an export's "
                        f"{gradescope_export.EXPORT_METADATA}")
    return sorted(entries, key=lambda e: e.id), warnings


def _refused_inside(path: Path, mode: int) -> list[str]:
    """Notes about the links and special files inside a folder entry: none of
    them is read, and the student is told so."""
    try:
        refused = files.walk(path).refused if stat.S_ISDIR(mode) else []
    except files.UnreadableFile:
        return []  # reading the entry will say why
    more = [f"... and {len(refused) - 3} more files not read"] if len(refused) > 3 else []
    return refused[:3] + more


def safe_id(name: str) -> str:
    """A printable id usable as a folder name and a spreadsheet cell
    (undecodable bytes, separators and control characters replaced; never
    starting with a dot or a character a spreadsheet reads as a formula)."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    text = re.sub(r"[\x00-\x1f\x7f-\x9f/\\\ufffd]", "_", text)
    text = untrusted.name(text, untrusted.NAME_CHARS).strip() or "_"
    return "_" + text if text[0] in ".=+-@" else text


def _assign_ids(entries: list[Entry]) -> None:
    """Make ids unique, ignoring case, and distinct from every output name,
    with a note on each entry renamed. Deterministic for the same folder
    contents: a clashing entry keeps its extension ("dup.zip"), then gets a
    number ("grades.csv_2")."""
    reserved = {n.casefold() for n in OUTPUT_NAMES}
    counts = Counter(e.id.casefold() for e in entries)
    why: dict[int, str] = {}
    for i, e in enumerate(entries):
        if e.id.casefold() in reserved:
            why[i] = f"'{e.id}' is the name of a file the grader writes"
        elif counts[e.id.casefold()] > 1:
            others = [safe_id(o.path.name) for o in entries
                      if o is not e and o.id.casefold() == e.id.casefold()]
            why[i] = f"another submission has the same name ({', '.join(others)})"
    for i in why:
        entries[i].id = safe_id(entries[i].path.name)
    taken = set(reserved)
    for i, e in sorted(enumerate(entries), key=lambda pair: pair[1].path.name):
        base, n = e.id, 1
        while e.id.casefold() in taken:
            n += 1
            e.id = f"{base}_{n}"
        if n > 1:
            why.setdefault(i, f"another submission is graded as '{base}'")
        taken.add(e.id.casefold())
    for i, reason in why.items():
        entries[i].notes.append(f"{reason}; this one is graded as '{entries[i].id}'")


def read_notebook_bytes(entry: Entry, assignment: str) -> tuple[bytes, str]:
    """The notebook's bytes and the name it had inside the entry (cleaned);
    raises SubmissionError."""
    path = entry.path
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISDIR(mode):
            found = files.walk(path)
            notebooks = [f for f in found.files if f.lower().endswith(".ipynb")]
            if not notebooks and found.refused:
                raise SubmissionError(f"no notebook could be read: {found.refused[0]}")
            chosen = _choose(notebooks, assignment)
            return (files.read_regular(path / chosen, MAX_NOTEBOOK_BYTES, untrusted.name(chosen)),
                    untrusted.name(chosen))
        if path.suffix.lower() == ".zip" and not stat.S_ISLNK(mode):
            return _from_zip(path, assignment)
        label = untrusted.name(path.name)
        return files.read_regular(path, MAX_NOTEBOOK_BYTES, label), label
    except files.UnreadableFile as exc:
        raise SubmissionError(str(exc)) from None


def _from_zip(path: Path, assignment: str) -> tuple[bytes, str]:
    try:
        with files.open_regular(path, "the zip file") as raw, zipfile.ZipFile(raw) as zf:
            members = {i.filename: i for i in zf.infolist() if not i.is_dir()
                       and i.filename.lower().endswith(".ipynb") and not _is_link(i)
                       and not files.IGNORED_DIRS & set(PurePosixPath(i.filename).parts)}
            chosen = _choose(sorted(members), assignment)
            info, label = members[chosen], untrusted.name(chosen)
            if info.file_size > MAX_NOTEBOOK_BYTES:
                raise SubmissionError(f"{label} in the zip is larger than "
                                      f"{MAX_NOTEBOOK_BYTES // 2**20} MB")
            with zf.open(info) as f:
                data = f.read(MAX_NOTEBOOK_BYTES + 1)  # bounded even if the header lies
            if len(data) > MAX_NOTEBOOK_BYTES:
                raise SubmissionError(f"{label} in the zip is too large")
            return data, label
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, RuntimeError,
            NotImplementedError) as exc:
        raise SubmissionError(f"the zip file could not be read ({untrusted.name(exc)})") from None


def _is_link(info: zipfile.ZipInfo) -> bool:
    """A member stored as a symbolic link holds only its target's path."""
    return stat.S_ISLNK(info.external_attr >> 16)


def _choose(names: list[str], assignment: str) -> str:
    if len(names) == 1:
        return names[0]
    if not names:
        raise SubmissionError("no .ipynb notebook found in the submission")
    preferred = [n for n in names if PurePosixPath(n).stem == assignment]
    if len(preferred) == 1:
        return preferred[0]
    shown = ", ".join(untrusted.name(n) for n in names[:5])
    raise SubmissionError(f"found {len(names)} notebooks ({shown}); "
                          f"submit one, or name it {assignment}.ipynb")
