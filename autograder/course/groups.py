"""--groups FILE: Canvas's export of a group set, so that a group assignment's one
submission counts for every member of the uploader's group.

A Canvas "Download Submissions" of a group assignment holds one file per
group, named with the group's name and the user id of ONE member. Canvas's
export of the group set (People > the group set > Export) is a CSV with a row
per student: name, canvas_user_id, user_id (the SIS id), login_id, sections,
group_name, canvas_group_id, group_id. A submission whose submitter is in one
group there is credited to every member of that group: gradebook.csv and
canvas.csv get a row for each, with the group's score; grading, results.json
and grades.csv are as without it.

What must stay true: nothing is guessed. A submitter is found by their own
identifiers only, each kind against its own column (Canvas user id against
canvas_user_id, SIS id against user_id, login against login_id), exactly,
case aside; one who is in no group, or in several, is credited alone and said.
"""
from __future__ import annotations

import csv
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from autograder.engine.results import SubmissionResult
from autograder.course import roster

GROUP_COLUMNS = ("group_name", "group name", "group")
GROUP_ID_COLUMNS = ("canvas_group_id", "group_id")
MEMBER_COLUMNS = {  # the export's column -> the member's identifier (roster.KEYS's kinds)
    "canvas_user_id": "canvas_user_id",
    "user_id": "sid", "sis_user_id": "sid", "sis user id": "sid",
    "login_id": "email", "sis_login_id": "email", "sis login id": "email",
}
NAME_COLUMNS = ("name", "student", "sortable_name")
SHOWN = 10


@dataclass
class Groups:
    members: dict[str, list[dict]] = field(default_factory=dict)
    """Group key -> its members, each a dict of roster.KEYS's kinds and name."""
    names: dict[str, str] = field(default_factory=dict)
    """Group key -> the group's name."""
    index: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    """(kind, case-folded identifier) -> the groups holding it."""
    path: str = ""


def read(path: Path) -> Groups:
    """Raises ValueError with a message for the user."""
    if not path.is_file():
        raise ValueError(f"--groups {path} does not exist; give Canvas's export of the "
                         "group set (a CSV with group_name and canvas_user_id columns)")
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"--groups {path} is not a readable UTF-8 CSV file ({exc})") from None
    header = {(h or "").strip().lower(): h for h in (rows[0].keys() if rows else [])}
    group = next((header[c] for c in GROUP_COLUMNS if c in header), None)
    ids = {header[c]: kind for c, kind in MEMBER_COLUMNS.items() if c in header}
    if group is None or not ids:
        raise ValueError(f"--groups {path}: expected Canvas's group export, with a "
                         "group_name column and canvas_user_id, user_id or login_id")
    group_id = next((header[c] for c in GROUP_ID_COLUMNS if c in header), None)
    name = next((header[c] for c in NAME_COLUMNS if c in header), None)
    groups = Groups(path=str(path))
    for row in rows:
        label = (row.get(group) or "").strip()
        key = ((row.get(group_id) or "").strip() if group_id else "") or label
        member = {kind: (row.get(column) or "").strip() for column, kind in ids.items()
                  if (row.get(column) or "").strip()}
        if not key or not member:  # a student in no group, or a row naming no one
            continue
        if name and (row.get(name) or "").strip():
            member["name"] = row[name].strip()
        groups.members.setdefault(key, []).append(member)
        groups.names.setdefault(key, label or key)
        for kind, value in member.items():
            if kind != "name":
                groups.index.setdefault((kind, value.casefold()), set()).add(key)
    return groups


def credit(results: list[SubmissionResult], groups: Groups | None
           ) -> tuple[list[SubmissionResult], list[str]]:
    """`results` with each group submission's users made its whole group (copies;
    the results themselves are untouched), and the lines to print."""
    if groups is None:
        return results, []
    out, credited, alone, several = [], [], [], []
    for r in results:
        found = {key for user in roster.members(r) for kind, value in user.items()
                 if kind != "name" and isinstance(value, str)
                 for key in groups.index.get((kind, value.strip().casefold()), ())}
        if len(found) == 1:
            key = found.pop()
            members = [dict(m) for m in groups.members[key]]
            out.append(dataclasses.replace(r, metadata={**r.metadata, "users": members,
                                                        "group": groups.names[key]}))
            credited.append(len(members))
            continue
        out.append(r)
        (several if found else alone).append(r.submission)
    lines = [f"groups: {len(credited)} submissions credited to every member of their group "
             f"({sum(credited)} students)"]
    if alone:
        lines.append(f"groups: {len(alone)} submissions' submitters are in no group of "
                     f"{groups.path}, credited to the submitter alone: "
                     + ", ".join(alone[:SHOWN]) + (" ..." if len(alone) > SHOWN else ""))
    if several:
        lines.append(f"groups: {len(several)} submissions' submitters are in several groups "
                     "(not credited to any group; fix the group export): "
                     + ", ".join(several[:SHOWN]) + (" ..." if len(several) > SHOWN else ""))
    return out, lines
