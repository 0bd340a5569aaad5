"""How many values an answer holds, counted before it is decoded: the bound on
state a test reads back from the student's worker (Student.read).

A reply is already bounded in bytes (protocol.MAX_HEADER, MAX_BUFFERS), but a
megabyte of small lists is a hundred thousand entries, and a test that walks
them pairwise spends minutes of the grader's time. A test that reads back
state (a step function's record of its calls) declares how many values an
honest answer holds at most; more is the student's error, refused before any
test code sees it.
"""
from __future__ import annotations


class TooLarge(Exception):
    """An answer held more values than its reader declared."""

    def __init__(self, limit: int):
        super().__init__(f"more than {limit:,} values")
        self.limit = limit


def check(obj, limit: int) -> None:
    """Raise TooLarge when the tagged value `obj` (protocol's encoding) holds more
    than `limit` values (every number, string, array, list, tuple and dict, at
    every depth); stops counting at the first value past it. Anything malformed
    is counted as one value: decoding it is protocol.unpack's judgement."""
    count, stack = 0, [obj]
    while stack:
        value = stack.pop()
        count += 1
        if count > limit:
            raise TooLarge(limit)
        if type(value) is dict and type(value.get("v")) is list and value.get("t") in (
                "list", "tuple", "dict"):
            for item in value["v"]:
                if value["t"] == "dict" and type(item) is list:
                    stack.extend(item)  # key and value
                else:
                    stack.append(item)
