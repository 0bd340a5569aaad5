"""Anonymous codes for grading by hand: whose answer a code is, only the
instructor's key says.

A submission's code is "M" and the first 40 bits of
HMAC-SHA256(secret, "<assignment>\\0<submission id>") in Crockford's base32
(MK3M97QXA): unguessable without the secret, the same on every run into the
same DIR, and never a number or formula a spreadsheet would rewrite. The
secret is DIR/.manual_secret (32 random bytes as hex, PRIVATE), made by the
first export; the key DIR/manual_key.csv (code, submission; PRIVATE: the
instructor's, not the graders') lists every code issued in DIR.

What must stay true: a code in the key keeps naming the same submission, and
the key is only ever added to, so that a filled rubric file stays valid
across re-runs (a newcomer whose code would be taken gets a longer one).
"""
from __future__ import annotations

import csv
import hashlib
import hmac
import io
import secrets
from pathlib import Path

from autograder.writing import PRIVATE, csv_text, spreadsheet_value, write_atomic

SECRET = ".manual_secret"
KEY = "manual_key.csv"
KEY_COLUMNS = ["code", "submission"]
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: no I, L, O or U to misread."""
PREFIX = "M"
LENGTHS = (8, 12, 16, 26)
"""Characters after the prefix: the first that is free is used."""


def normal(code: str) -> str:
    """A code as typed (spaces, lower case) as it was issued."""
    return code.strip().upper()


def code(secret: bytes, assignment: str, submission: str, length: int = LENGTHS[0]) -> str:
    digest = hmac.new(secret, f"{assignment}\0{submission}".encode(), hashlib.sha256).digest()
    bits = int.from_bytes(digest, "big")
    chars = [ALPHABET[(bits >> (256 - 5 * (i + 1))) & 31] for i in range(length)]
    return PREFIX + "".join(chars)


def read_key(out: Path) -> dict[str, str]:
    """code -> submission id, as DIR's key says ({} when there is none yet);
    ValueError naming the line of a row that is not a code and an id."""
    path = out / KEY
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} cannot be read ({exc})") from None
    reader = csv.reader(io.StringIO(text))
    key: dict[str, str] = {}
    for row in reader:
        if reader.line_num == 1 and [c.strip().lower() for c in row] == KEY_COLUMNS:
            continue
        if not row:
            continue
        if len(row) != 2 or not row[0].strip() or not row[1]:
            raise ValueError(f"{path} line {reader.line_num}: expected a code and a submission "
                             "id; this file is written by `grade`, restore it from a backup")
        key[normal(row[0])] = spreadsheet_value(row[1])
    return key


def issue(out: Path, assignment: str, submissions: list[str]) -> dict[str, str]:
    """submission id -> its code, for each of `submissions`; the key gains the
    codes it lacked (and the secret is made, the first time)."""
    key = read_key(out)
    given = {sid: c for c, sid in key.items()}
    secret = _secret(out)
    fresh = {}
    for sid in sorted(set(submissions) - set(given)):
        taken = key.keys() | fresh.keys()
        fresh[next(c for c in (code(secret, assignment, sid, n) for n in LENGTHS)
                   if c not in taken)] = sid
    if fresh:
        key.update(fresh)
        rows = sorted(key.items(), key=lambda kv: (kv[1], kv[0]))
        write_atomic(out / KEY, csv_text([KEY_COLUMNS, *map(list, rows)]), PRIVATE)
        given.update({sid: c for c, sid in fresh.items()})
    return {sid: given[sid] for sid in submissions}


def _secret(out: Path) -> bytes:
    """DIR's secret, made (readable by this user only) when there is none;
    an existing one is never replaced."""
    path = out / SECRET
    if not path.exists():
        write_atomic(path, secrets.token_hex(32) + "\n", PRIVATE)
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        text = ""
    if len(text) < 32:
        raise ValueError(f"{path} is not a secret this package made; restore it from a backup "
                         f"(the codes of {out / KEY} depend on it)")
    return text.encode()
