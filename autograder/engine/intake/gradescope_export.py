"""Who submitted what, in a Gradescope "Export Submissions" archive.

The unpacked archive holds one folder per submission (submission_123456/)
and one submission_metadata.yml at its top, keyed by folder name:

    submission_123456:
      :submitters:
      - :name: Ada L
        :sid: 's2001'
        :email: ada@uni.edu
      :created_at: 2026-03-02 10:05:00.000000000 -08:00

lookup(entry).metadata gives that record in the shape of the
submission_metadata.json Gradescope writes when it runs an autograder
({"users": [{"name", "sid", "email"}], "created_at": ...}). The file is read
as data with a safe loader (Ruby type tags read as plain values), once per
folder and modification time, and every string in it is cleaned
(engine.intake.untrusted: a student chooses their own name).

What must stay true: only an export's own file, beside its submission
folders, says who submitted and when; a file of that name inside a
submission is the student's and is never read, however the submission is
graded. So the record of an entry is that of the OUTERMOST folder holding it
(the entry itself included) that a submission_metadata.yml beside it lists,
where
- a record describes a folder (an export holds one folder per submission):
  a file is never looked up, so a yml beside a notebook never names it;
- nothing below a folder named as Gradescope names a submission's
  (submission_<digits>) that no export lists is looked up: that folder is a
  submission copied out of its export, and everything in it the student's.
Regrading one submission by its path (`grade export/submission_123456` or
its notebook) therefore still gets the export's record for submission_123456;
copied out of its export it gets none, and lookup(entry).unlisted names the
folder so that the caller can say so (engine/intake/submissions.py: graded
as the folder's, lateness from the file's time, a warning).
"""
from __future__ import annotations

import datetime
import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISDIR, S_ISREG

from autograder.engine.intake import untrusted

EXPORT_METADATA = "submission_metadata.yml"
MAX_BYTES = 64 * 2**20
MAX_DEPTH = 8
"""Nesting kept from a record (Gradescope's is 3 deep)."""
MAX_ITEMS = 100
"""Items kept per list or mapping (the submitters of a group, the fields of a user)."""
MAX_LEVELS = 64
"""Folders above an entry that are looked at for an export that lists it."""


SUBMISSION_FOLDER = re.compile(r"submission_[0-9]+")
"""How Gradescope names a submission's folder in its export."""


@dataclass(frozen=True)
class Found:
    """What the export says about an entry."""
    metadata: dict
    """The record, as submission_metadata.json has it ({} when no export lists the entry)."""
    unlisted: str = ""
    """The name of the submission folder (SUBMISSION_FOLDER) holding the entry, the entry
    itself included, when no export lists it; "" otherwise."""


def lookup(entry: Path) -> Found:
    """The export's record for `entry`, or the submission folder no export lists."""
    path = Path(os.path.abspath(entry))
    for folder in reversed([path, *path.parents][:MAX_LEVELS]):  # outermost first
        if folder == path and not _is_folder(path):
            break  # a record describes a folder, never a file beside the yml
        record = _record(folder.parent / EXPORT_METADATA, folder.name)
        if record is not None:
            return Found(_as_json_metadata(record))
        if SUBMISSION_FOLDER.fullmatch(folder.name):
            return Found({}, folder.name)  # copied out of its export: all in it is the student's
    return Found({})


def _is_folder(path: Path) -> bool:
    try:
        return S_ISDIR(os.lstat(path).st_mode)  # a link to a folder is not followed
    except OSError:
        return False


def _record(path: Path, name: str) -> dict | None:
    """The record `name` of the export file `path`, if it has one."""
    try:
        stat = os.stat(path)  # the export's own file: its folder is the instructor's
    except OSError:
        return None
    if not S_ISREG(stat.st_mode) or stat.st_size > MAX_BYTES:
        return None
    record = _records(str(path), stat.st_mtime_ns, stat.st_size).get(name)
    return record if isinstance(record, dict) else None


@functools.lru_cache(maxsize=8)
def _records(path: str, mtime_ns: int, size: int) -> dict:
    try:
        import yaml
    except ImportError:
        return {}

    class Loader(yaml.SafeLoader):
        """SafeLoader that reads any !tag (e.g. !ruby/object) as its plain value."""

    def plain(loader, suffix, node):
        if isinstance(node, yaml.MappingNode):
            return loader.construct_mapping(node, deep=True)
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node, deep=True)
        return loader.construct_scalar(node)
    Loader.add_multi_constructor("!", plain)
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.load(f, Loader=Loader)  # noqa: S506 - a SafeLoader subclass
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    return {str(k): v for k, v in data.items()} if isinstance(data, dict) else {}


def plain(value, depth: int = 0):
    """LMS metadata as JSON-like data: dates in ISO 8601, strings cleaned,
    symbol keys (":name") without their colon, nesting and sizes bounded."""
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {untrusted.name(str(k).lstrip(":")): plain(v, depth + 1)
                for k, v in list(value.items())[:MAX_ITEMS]} if depth < MAX_DEPTH else {}
    if isinstance(value, list):
        return [plain(v, depth + 1) for v in value[:MAX_ITEMS]] if depth < MAX_DEPTH else []
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return untrusted.name(value)


def _as_json_metadata(record: dict) -> dict:
    data = plain(record)
    users = data.pop("submitters", [])
    data["users"] = [u for u in users if isinstance(u, dict)] if isinstance(users, list) else []
    return data
