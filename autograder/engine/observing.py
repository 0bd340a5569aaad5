"""What a Student reports as a test drives the notebook, to an Observer.

The Student (engine/driving/student.py) only reports: a call of the notebook's
function, a request on a handle, a seed, a twin the test declared; it never keeps
what it reports. An Observer that does nothing is the default, so a test nobody
watches pays a method call per request. The diagnoses' Recorder
(engine/diagnoses/recorder.py) is the one that keeps a test's calls: it sits
below the driving layer, so this seam is all the two share.

An observer watches and never changes what the test sees: it is handed the
answers, never asked for them.
"""
from __future__ import annotations

from typing import Callable


UNREAD = object()
"""A twin's state the test did not read back (Observer.twin)."""


class Observer:
    """Does nothing: every report is dropped. A request's report is a token from
    calling() or stepping() (None: not watched), then answered(), raised() or
    broke() with that token."""

    def calling(self, name: str, args, kwargs, times: int | None):
        """The notebook's `name` is about to be called (`times` in one request, or
        once with None); a token to report the outcome with, or None."""
        return None

    def stepping(self, handle, op: str, args, kwargs, times: int | None):
        """A request on `handle` ("call", "getattr" with args (name,), "list");
        a token, or None."""
        return None

    def answered(self, token, answer) -> None:
        """The request of `token` answered (a handle it answers was given the token
        first: holds())."""

    def raised(self, token, type_names: list[str], message: str) -> None:
        """The student's code raised during the request of `token`."""

    def broke(self, token) -> None:
        """The request of `token` ended otherwise (a timeout, the worker died)."""

    def holds(self, token, handle) -> None:
        """The answer of the request of `token` holds `handle` (made before
        answered() is reported)."""

    def made(self, handle, path: str, args, kwargs) -> None:
        """Student.new(path, *args, **kwargs) built `handle`."""

    def sent(self, handle) -> None:
        """`handle` is an argument of a request (which may change it)."""

    def reset(self, seed: int) -> None:
        """The worker's RNGs are seeded with `seed` (an int) as the test begins."""

    def reseeded(self, seed: int) -> None:
        """The test seeded the worker's RNGs with `seed`, an int (Student.seed)."""

    def answer_read(self, question: str, kwargs: dict, answer) -> None:
        """The test read an answer of `question` rather than calling for it (an
        exam's short answer), about the numbers `kwargs`."""

    def twin(self, handle, make: Callable, read: Callable | None, seen) -> None:
        """The test declared the grader's twin of `handle` (Student.twin)."""

    def mark(self):
        """Where the reports stand now, for since(): a shared answer's calls."""
        return None

    def since(self, mark):
        """What was reported after `mark`, to be reported again (again()) in a later
        test that reads the same shared answers; None for nothing."""
        return None

    def again(self, kept) -> None:
        """Report again what since() gave, in this test or an earlier one (a test may
        read shared answers many times: an observer keeps them once)."""


NOBODY = Observer()
"""The observer of a test nobody watches."""
