"""Whose exam is this? The grader's answer, not the notebook's.

The grader knows the submitter: on Gradescope from submission_metadata.json
(each user's sid and email, in the order the exam's config lists them), from
a Canvas download's file names (the Canvas user id), locally from the
submission id (the file or folder name). The notebook
claims an identity in STUDENT_ID. When the claim is one of the known
identities, the student's parameters are those of the claim; otherwise the
submission is flagged and graded with the parameters of the first known
identity, so answers copied from a neighbour are checked against the
copier's own numbers.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from autograder.exam.variants import canonical

FLAG = "IDENTITY FLAG"
"""How every flag message starts (reports and the instructor search for it)."""
UNSET = "unset"
MATCH = "match"
MISMATCH = "mismatch"


@dataclass(frozen=True)
class Resolution:
    graded_as: str
    """The identity whose parameters the answers are graded against."""
    claimed: str | None
    """The notebook's STUDENT_ID (None when it is not a non-empty string)."""
    known: tuple[str, ...]
    """Identities the grader knows for this submission, canonical, primary first."""
    status: str
    """MATCH, MISMATCH (claims someone else) or UNSET (no STUDENT_ID given)."""

    def to_plain(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_plain(cls, data: dict) -> "Resolution":
        return cls(data["graded_as"], data["claimed"], tuple(data["known"]), data["status"])

    @property
    def flagged(self) -> bool:
        return self.status != MATCH

    def message(self) -> str:
        if self.status == MATCH:
            return f"STUDENT_ID matches this submission ({self.graded_as})"
        if self.status == UNSET:
            return (f"{FLAG}: STUDENT_ID is not set in the notebook; the answers were "
                    f"graded with the parameters of {self.graded_as}, the submitter")
        return (f"{FLAG}: the notebook's STUDENT_ID {self.claimed!r} is not the "
                f"submitter ({self.graded_as}); the answers were graded with the "
                f"submitter's parameters and the submission is flagged for the instructor")


def known_identities(submission_id: str, metadata: dict, fields=("sid", "email")) -> list[str]:
    """Canonical identities of the submitter(s), the primary one first.

    Gradescope metadata lists users (several for a group submission); each
    user's fields are taken in the order of `fields`. Without usable
    metadata the submission id is the identity."""
    known: list[str] = []
    users = metadata.get("users") if isinstance(metadata, dict) else None
    for user in users if isinstance(users, list) else []:
        for f in fields:
            value = user.get(f) if isinstance(user, dict) else None
            if isinstance(value, (str, int)) and canonical(value) and canonical(value) not in known:
                known.append(canonical(value))
    return known or [canonical(submission_id)]


def resolve(submission_id: str, metadata: dict, claimed, fields=("sid", "email")) -> Resolution:
    known = tuple(known_identities(submission_id, metadata, fields))
    if not isinstance(claimed, (str, int)) or isinstance(claimed, bool) or not canonical(claimed):
        return Resolution(known[0], None, known, UNSET)
    claim = canonical(claimed)
    if claim in known:
        return Resolution(claim, claim, known, MATCH)
    return Resolution(known[0], claim, known, MISMATCH)
