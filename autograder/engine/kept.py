"""Values kept for the rest of a batch: a map bounded by the total size of its
entries, the oldest dropped first, shared by the grading threads.

Its users key it by a digest of what a value is computed from, so that an equal
key means an equal value, and weigh each entry in a unit of their own: a
diagnosis counts one (diagnoses/verdicts.py), a drive its answers' array entries
(diagnoses/drive.py), hw1's lent attention its arrays' bytes. The newest entry
stays even when it alone is over the bound.
"""
from __future__ import annotations

import threading


class Kept:
    def __init__(self, bound: int):
        self.bound = bound
        self.size = 0
        self._entries: dict = {}  # key -> (value, size), oldest first
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key, default=None):
        with self._lock:
            entry = self._entries.get(key)
        return default if entry is None else entry[0]

    def put(self, key, value, size: int) -> None:
        """Keep `value` under `key` (in place of what it held), then drop the oldest
        entries while the sizes add up to more than the bound."""
        with self._lock:
            old = self._entries.pop(key, None)
            self.size += size - (old[1] if old else 0)
            self._entries[key] = (value, size)
            while self.size > self.bound and len(self._entries) > 1:
                self.size -= self._entries.pop(next(iter(self._entries)))[1]
