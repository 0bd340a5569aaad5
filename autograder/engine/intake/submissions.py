"""Finding the submissions in a folder and the notebook inside each.

An entry is a .ipynb file, a folder holding one notebook (or the zip the
notebook's export cell makes), or a .zip (an otter export); any other file
is an entry that is not graded, so its student is still listed. Files named
by a Canvas download give one entry per student (engine.intake.canvas_download).
Everything in an entry is hostile input: files are read through
engine.intake.files (no link followed, regular files only, sizes bounded while
reading); zips are read member by member, nothing is
extracted, so paths like ../x in a zip are inert, and only once their list
of members is judged small enough to read (engine/intake/zips.py). Ids never collide with
each other (also ignoring case) nor with a file `grade` writes beside them.
Who submitted and when comes only from the LMS's own files (a Gradescope
export's submission_metadata.yml beside its submission folders, the names
Canvas gives the files of its download, or what run-gradescope was told),
never from a file inside a submission (engine/intake/gradescope_export.py);
an entry in a Gradescope submission folder that no export lists (one copied
out of its export) is graded as that folder's, with a note and a warning
saying that who and when are unknown. When an entry was modified is read
once, here (Entry.mtime).
"""
from __future__ import annotations

import os
import re
import stat
import zipfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from autograder.engine.intake import (canvas_download, files, gradescope_export, handout,
                                      untrusted, zips)
from autograder.engine.intake.notebook import MAX_NOTEBOOK_BYTES, NotebookError, parse_cells
from autograder.engine.results import GRADING_OUTPUTS

GRADABLE = (".ipynb", ".zip")
UPLOADED_METADATA = "submission_metadata.json"
"""Gradescope's metadata file name: inside a submission it is the student's
upload, so it is never read there."""
METADATA_NAMES = (UPLOADED_METADATA, gradescope_export.EXPORT_METADATA)
"""The LMS's metadata files: inside a submission, each is the student's and never read."""
UNLISTED = "who submitted and when are unknown"
"""How the note on an entry in a submission folder no export lists starts."""


@dataclass
class Entry:
    id: str
    path: Path
    notes: list[str] = field(default_factory=list)
    metadata: dict = field(default_factory=dict)
    """What the LMS says about this submission (users, created_at), from its
    own files only; {} when it says nothing."""
    submitter: str = ""
    """Who submitted, as the entry's name says, when the id had to be made unique
    (s2002.ipynb and s2002.zip: ids "s2002.ipynb" and "s2002.zip", submitter
    "s2002"), or as its folder's name says for an entry in a Gradescope
    submission folder no export lists (submission_1002/hw1.ipynb: submitter
    "submission_1002"); "" when the id is the name itself."""
    mtime: float | None = None
    """When the entry itself was last modified (os.lstat's st_mtime: a link is
    not followed), as discovery read it: the report stage's lateness takes it
    from here, never from the folder again. None when it was not read."""


class SubmissionError(Exception):
    """The entry holds no gradable notebook; the message is for the student."""


def discover(target: Path, reserved: Iterable[str] = ()) -> tuple[list[Entry], list[str]]:
    """Submission entries, sorted by id, and warnings. `target` is a folder
    of entries or a single notebook. Every file becomes an entry (one that
    is not a notebook is not graded, and the student is told why), except
    hidden files and the LMS's own; files Canvas named give one entry per
    student. `reserved`: the files the caller writes beside the submission
    folders besides grading's own (GRADING_OUTPUTS, always reserved): `grade`
    passes those its reports declare (report/run.py)."""
    if not target.is_dir():
        entries = _entries([target])
    else:
        entries = _entries([p for p in sorted(target.iterdir()) if not p.name.startswith(".")
                            and p.name != gradescope_export.EXPORT_METADATA])
    _assign_ids(entries, (*GRADING_OUTPUTS, *reserved))
    warnings = []
    clashes = Counter(e.submitter.casefold() for e in entries if e.submitter)
    shared = sorted(e.id for e in entries if clashes[e.submitter.casefold()] > 1)
    if shared:
        warnings.append(f"{len(shared)} submissions share a name with another ("
                        f"{', '.join(shared[:6])}): each is graded in its own folder, as its "
                        "submitter's; check that one student did not upload twice")
    warnings += _metadata_warnings(target, entries)
    resubmitted = [e.id for e in entries if e.metadata.get("lms") == "canvas"
                   and any(canvas_download.SEVERAL_FILES in n for n in e.notes)]
    if resubmitted:
        warnings.append(f"several files in the Canvas download for {len(resubmitted)} "
                        f"students ({', '.join(resubmitted[:5])}): the latest of each is graded")
    return sorted(entries, key=lambda e: e.id), warnings


def _metadata_warnings(target: Path, entries: list[Entry]) -> list[str]:
    """The LMS metadata files inside submissions that were not read (in an entry,
    or in `target` when it is itself in a submission: one regraded by its path),
    and the submission folders no export lists."""
    warnings = []
    itself = gradescope_export.lookup(target) if target.is_dir() else None
    for name in METADATA_NAMES:
        uploaded = [e.id for e in entries if os.path.lexists(e.path / name)]
        if itself and (itself.metadata or itself.unlisted) and os.path.lexists(target / name):
            uploaded.insert(0, safe_id(target.name))
        if uploaded:
            warnings.append(f"ignored {name} inside {len(uploaded)} submissions "
                            f"({', '.join(uploaded[:5])}): a student can upload that file; who "
                            "submitted and when come only from an export's "
                            f"{gradescope_export.EXPORT_METADATA}, beside its submission folders")
    unlisted = sorted({e.submitter for e in entries if any(n.startswith(UNLISTED)
                                                           for n in e.notes)})
    if unlisted:
        warnings.append(f"{UNLISTED} for the submission folder {', '.join(unlisted[:5])}: no "
                        f"export's {gradescope_export.EXPORT_METADATA} lists it (one inside a "
                        "submission is the student's and is never read), so it is graded as "
                        "its folder's name, late or not by its files' time (with --due); "
                        "regrade it inside its unpacked export, with the export's "
                        f"{gradescope_export.EXPORT_METADATA} beside the folder")
    return warnings


def _entries(paths: list[Path]) -> list[Entry]:
    entries, canvas, mtimes = [], [], {}
    for path in paths:
        status = os.lstat(path)
        mode, mtimes[path] = status.st_mode, status.st_mtime
        named = None if stat.S_ISDIR(mode) else canvas_download.parse(path)
        if named is not None:
            canvas.append(named)
            continue
        stem = path.stem if stat.S_ISREG(mode) or path.suffix.lower() in GRADABLE else path.name
        found = gradescope_export.lookup(path)
        entry = Entry(safe_id(stem), path, _refused_inside(path, mode), found.metadata,
                      mtime=mtimes[path])
        if found.unlisted:
            entry.submitter = safe_id(found.unlisted)
            entry.notes.insert(0, _unlisted_note(entry.submitter))
        entries.append(entry)
    entries += [Entry(safe_id(f.entry_id), f.path, notes, f.metadata(), mtime=mtimes[f.path])
                for f, notes in canvas_download.latest_per_student(canvas)]
    return entries


def _unlisted_note(folder: str) -> str:
    return (f"{UNLISTED}: no Gradescope export lists the folder {folder} this was graded "
            f"from, so it is graded as {folder}'s and its time is its file's "
            f"(a {gradescope_export.EXPORT_METADATA} inside a submission is never read)")


def gradable(entry: Entry) -> bool:
    """A folder, a notebook or a zip: something that may hold a notebook."""
    return entry.path.is_dir() or entry.path.suffix.lower() in GRADABLE


def problem_with(target: Path) -> str | None:
    """Why `target` cannot be graded at all, for the user (None when it can)."""
    if not os.path.lexists(target):
        return (f"{target} does not exist; give the folder that holds the submissions "
                "(one .ipynb, .zip or folder per student) or a single .ipynb")
    if not target.is_dir():
        if target.suffix.lower() == ".ipynb":
            return None
        if target.suffix.lower() == ".zip":
            return (f"{target} is a zip file: unzip it and give the folder (a Canvas or "
                    "Gradescope download holds every student's submission)")
        return f"{target} is neither a folder of submissions nor a .ipynb notebook"
    entries, _ = discover(target)
    if not entries:
        return (f"{target} is empty: put one .ipynb, .zip or folder per student there "
                "(an unzipped Canvas or Gradescope download works as is)")
    if not any(gradable(e) for e in entries):
        shown = ", ".join(e.path.name for e in entries[:5]) + (" ..." if len(entries) > 5 else "")
        return (f"{target} holds nothing to grade: {len(entries)} files "
                f"({untrusted.name(shown)}) and none is a .ipynb notebook, a .zip or a folder; "
                "students must submit the notebook itself (File > Download > Notebook) or "
                "the zip its export cell makes")
    return None


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


def _assign_ids(entries: list[Entry], outputs: Iterable[str]) -> None:
    """Make ids unique, ignoring case, and distinct from every name of `outputs`,
    with a note on each entry renamed. Deterministic for the same folder
    contents: a clashing entry keeps its extension ("dup.zip"), then gets a
    number ("grades.csv_2")."""
    reserved = {n.casefold() for n in outputs}
    names = [e.id for e in entries]
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
        entries[i].submitter = entries[i].submitter or names[i]  # its folder's name, if said
        entries[i].notes.append(f"{reason}; this one is graded as '{entries[i].id}' "
                                f"(its results are in that folder; its submitter is still "
                                f"'{entries[i].submitter}')")


def read_notebook_bytes(entry: Entry, assignment: str,
                        notes: list[str] | None = None) -> tuple[bytes, str]:
    """The notebook's bytes and the name it had inside the entry (cleaned);
    raises SubmissionError. Where the entry holds the notebook as handed out
    beside one with answers, the latter is read and a note saying so is added
    to `notes`."""
    path = entry.path
    notes = [] if notes is None else notes
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISDIR(mode):
            found = files.walk(path)
            notebooks = [f for f in found.files if f.lower().endswith(".ipynb")]
            zips = [f for f in found.files if f.lower().endswith(".zip")]
            if not notebooks and not zips and found.refused:
                raise SubmissionError(f"no notebook could be read: {found.refused[0]}")
            if not notebooks and zips:  # the zip the notebook's export cell makes
                return _from_zip(path / _choose(zips, assignment, ".zip"), assignment, notes)
            read = lambda n: files.read_regular(path / n, MAX_NOTEBOOK_BYTES, untrusted.name(n))
            edited, handed = _sorted_by_answers(notebooks, read, assignment, alone=bool(zips))
            if handed and not edited and len(zips) == 1:  # the handout, and the export of a copy
                data, name = _from_zip(path / zips[0], assignment, notes)
                if not _is_handout(data, assignment):
                    notes.append(_set_aside(handed, name))
                    return data, name
            chosen = _choose_edited(edited, handed, assignment, notes)
            return read(chosen), untrusted.name(chosen)
        if path.suffix.lower() == ".zip" and not stat.S_ISLNK(mode):
            return _from_zip(path, assignment, notes)
        label = untrusted.name(entry.metadata.get("original_name") or path.name)
        if path.suffix.lower() != ".ipynb" and not stat.S_ISLNK(mode):
            raise SubmissionError(f"{label} is not a notebook, so it was not graded: submit the "
                                  ".ipynb file itself (or the zip the notebook's export cell makes)")
        return files.read_regular(path, MAX_NOTEBOOK_BYTES, label), label
    except files.UnreadableFile as exc:
        raise SubmissionError(str(exc)) from None


def _from_zip(path: Path, assignment: str, notes: list[str]) -> tuple[bytes, str]:
    try:
        with files.open_regular(path, "the zip file") as raw, zips.open_bounded(raw) as zf:
            members = {i.filename: i for i in zf.infolist() if not i.is_dir()
                       and i.filename.lower().endswith(".ipynb") and not _is_link(i)
                       and not files.IGNORED_DIRS & set(PurePosixPath(i.filename).parts)}
            read = lambda n: zips.read_member(zf, members[n], MAX_NOTEBOOK_BYTES,
                                              untrusted.name(n))
            edited, handed = _sorted_by_answers(sorted(members), read, assignment)
            chosen = _choose_edited(edited, handed, assignment, notes)
            return read(chosen), untrusted.name(chosen)
    except zips.ZipRefused as exc:
        raise SubmissionError(str(exc)) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, RuntimeError,
            NotImplementedError) as exc:
        raise SubmissionError(f"the zip file could not be read ({untrusted.name(exc)})") from None


MAX_COMPARED = 8
"""Notebooks of one entry read to tell the handout from a copy with answers."""


def _sorted_by_answers(names: list[str], read, assignment: str,
                       alone: bool = False) -> tuple[list[str], list[str]]:
    """(names with answers or unreadable, names that are the handout); with one name
    (unless `alone`: a zip beside it may hold the answers), or more than
    MAX_COMPARED, nothing is read and all count as edited."""
    if not (1 if alone else 2) <= len(names) <= MAX_COMPARED:
        return list(names), []
    edited, handed = [], []
    for name in names:
        try:
            (handed if _is_handout(read(name), assignment) else edited).append(name)
        except (files.UnreadableFile, zips.ZipRefused):
            edited.append(name)  # its own error, if chosen, is the student's message
    return edited, handed


def _is_handout(data: bytes, assignment: str) -> bool:
    try:
        return handout.is_handout(parse_cells(data), assignment)
    except NotebookError:
        return False


def _choose_edited(edited: list[str], handed: list[str], assignment: str,
                   notes: list[str]) -> str:
    """The notebook to grade: among those with answers when some are and some are
    not (with a note), else as _choose."""
    if edited and handed:
        chosen = _choose(edited, assignment)
        notes.append(_set_aside(handed, chosen))
        return chosen
    return _choose(edited + handed, assignment)


def _set_aside(handed: list[str], chosen: str) -> str:
    shown = ", ".join(untrusted.name(n) for n in handed[:3])
    return (f"{shown} in this submission is the notebook as handed out, with no answers; "
            f"{untrusted.name(chosen)}, which holds answers, was graded instead")


def _is_link(info: zipfile.ZipInfo) -> bool:
    """A member stored as a symbolic link holds only its target's path."""
    return stat.S_ISLNK(info.external_attr >> 16)


def _choose(names: list[str], assignment: str, suffix: str = ".ipynb") -> str:
    """The one notebook (or zip) to grade among `names`; raises SubmissionError."""
    if len(names) == 1:
        return names[0]
    if not names:
        raise SubmissionError("no .ipynb notebook (nor a zip holding one) found in the submission")
    preferred = [n for n in names if PurePosixPath(n).stem == assignment]
    if len(preferred) == 1:
        return preferred[0]
    shown = ", ".join(untrusted.name(n) for n in names[:5])
    kind = "notebooks" if suffix == ".ipynb" else "zip files and no notebook"
    raise SubmissionError(f"found {len(names)} {kind} ({shown}); "
                          f"submit one, or name it {assignment}{suffix}")
