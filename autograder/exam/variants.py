"""Per-student variants: which version of each question a student gets.

The derivation is public on purpose (the student notebook holds the same
few lines, so a student sees their own numbers): the variant of question q
for identity s is sha256("<exam>|<q>|<canonical s>") mod the number of
variants of q. Knowing the numbers is not knowing the answers; what keeps
an exam fair is that the grader, not the notebook, decides whose numbers
count (see identity.py).
"""
from __future__ import annotations

import hashlib


def canonical(identity) -> str:
    """The form identities are compared and hashed in: surrounding and
    repeated whitespace dropped, lower case ("  S123 " == "s123")."""
    return " ".join(str(identity).split()).lower()


def variant_index(exam: str, question: str, identity, count: int) -> int:
    """Index in [0, count) of the variant of `question` for `identity`."""
    if count < 1:
        raise ValueError(f"{question}: a question needs at least one variant")
    key = f"{exam}|{question}|{canonical(identity)}".encode("utf-8")
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % count


def parameters(exam: str, tables: dict[str, list[dict]], identity) -> dict[str, dict]:
    """{question: {"variant": index, **that variant's numbers}} for every question."""
    out = {}
    for question, table in tables.items():
        v = variant_index(exam, question, identity, len(table))
        out[question] = {"variant": v, **table[v]}
    return out
