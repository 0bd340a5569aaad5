"""A failed test's diagnosis, kept for the rest of the batch: the next submission
whose record is the same, bit for bit, gets it without a replay (VERDICTS).

A test runs on its own fixed inputs, so students who make one mistake in one way
give the same answers to the last bit, and diagnose() reads nothing but the record
(its calls' arguments and answers, the Steps, the seeds, whether the stub answered
in an earlier test), the question's candidates and the reference. The key is a
digest of all of that. A record that holds what the digest cannot name (a twin, an
object of a type not digested) is diagnosed every time, as is one whose diagnosis
ran out of its budget (nothing is kept: budget.GraderOverrun passes through)."""
from __future__ import annotations

import hashlib
import threading
from typing import Callable

from autograder.engine.diagnoses import compare, drive
from autograder.engine.diagnoses.raised import Raised
from autograder.engine.diagnoses.record import Calls
from autograder.engine.kept import Kept

MAX_KEPT = 4096
"""Verdicts kept per grader process (a few hundred bytes each), the oldest dropped first."""


class Verdicts:
    def __init__(self):
        self._kept = Kept(MAX_KEPT)  # (name, ids of candidates, id(reference), digest) -> ...
        self._lock = threading.Lock()
        self.hits = 0

    def diagnosis(self, candidates: tuple, record: Calls, reference: Callable,
                  diagnose: Callable[[], str]) -> str:
        """The kept diagnosis of an identical record, else diagnose(), kept."""
        digest = record_digest(record)
        if digest is None:
            return diagnose()
        key = (record.name, tuple(map(id, candidates)), id(reference), digest)
        kept = self._kept.get(key)
        if kept is not None and kept[1] is reference and \
                all(a is b for a, b in zip(kept[0], candidates)):
            with self._lock:
                self.hits += 1
            return kept[2]
        text = diagnose()  # the candidates and reference are held: their ids name no other
        self._kept.put(key, (tuple(candidates), reference, text), 1)
        return text


VERDICTS = Verdicts()


def record_digest(record: Calls) -> bytes | None:
    """A digest of everything diagnose() reads of the record, None when it holds a
    twin or a value of a type not digested here."""
    record.expand()  # as diagnose() does first: Repeated entries become their calls
    if record.twins:
        return None
    inputs = drive.key(record)  # shared with Driven, which replays on the same record
    if inputs is None:
        return None
    h = hashlib.blake2b(inputs, digest_size=20)
    h.update(repr((record.spoiled, record.driven, record.answered_before)).encode())
    try:
        for entry in record.calls:
            _answer(entry[2], h)
    except TypeError:
        return None
    return h.digest()


def _answer(value, h) -> None:
    """An answer fed to `h`: an exception as Raised compares it, a handle as a handle
    (compare.same tells no two apart), plain data as drive digests arguments."""
    if isinstance(value, Raised):
        h.update(repr(("raised", value.type_names, value.message, value.free)).encode())
    elif compare.is_handle(value):
        h.update(b"handle;")
    elif isinstance(value, (tuple, list)):
        h.update(f"{type(value).__name__}[{len(value)}".encode())
        for v in value:
            _answer(v, h)
        h.update(b"]")
    else:
        drive.digest(value, h)
