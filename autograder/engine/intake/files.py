"""Reading a submission's files as hostile input.

What must stay true: no symbolic link is ever followed (a link to the
solution or to /dev/zero is refused, with a message, wherever it sits in a
submission); only regular files are opened (never a FIFO, socket or device,
which could block or never end); reads are bounded while reading, whatever
stat said. Names of refused files are cleaned (engine.intake.untrusted) before
they reach any message.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from autograder.engine.intake import untrusted

MAX_FILES = 10_000
"""Directory entries looked at in one submission folder before giving up."""
IGNORED_DIRS = {".ipynb_checkpoints", "__MACOSX", ".git"}
"""Folders of editors and archivers: never read."""


class UnreadableFile(Exception):
    """A file that must not or cannot be read; the message is for the student."""


@dataclass
class Listing:
    """What a submission folder holds, without following a link."""
    files: list[str] = field(default_factory=list)
    """Regular files, as paths relative to the folder with "/" between parts."""
    refused: list[str] = field(default_factory=list)
    """Messages about links and special files that were left alone."""


def refusal(label: str, mode: int) -> str | None:
    """Why a file of this lstat mode is not read (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return (f"{label} is a symbolic link; links are not followed, so submit "
                "the file itself")
    if stat.S_ISDIR(mode):
        return f"{label} is a folder, not a file"
    return f"{label} is not a regular file (a pipe, socket or device); it is not read"


def open_regular(path: Path, label: str) -> BinaryIO:
    """`path` opened for reading if it is a regular file reached without a
    link in its last part (the caller walked the rest); raises UnreadableFile."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        raise UnreadableFile(f"{label} could not be read ({exc.strerror})") from None
    why = refusal(label, mode)
    if why:
        raise UnreadableFile(why)
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)  # O_NOFOLLOW and fstat: the file may have been swapped
    except OSError as exc:
        raise UnreadableFile(f"{label} could not be read ({exc.strerror})") from None
    why = refusal(label, os.fstat(fd).st_mode)
    if why:
        os.close(fd)
        raise UnreadableFile(why)
    return os.fdopen(fd, "rb")


def read_regular(path: Path, limit: int, label: str) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (counted while
    reading); raises UnreadableFile."""
    with open_regular(path, label) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise UnreadableFile(f"{label} is larger than {limit // 2**20} MB")
    return data


def walk(folder: Path) -> Listing:
    """Every regular file under `folder`, never entering a link, an ignored
    folder or more than MAX_FILES entries; raises UnreadableFile."""
    listing, pending, seen = Listing(), [""], 0
    while pending:
        relative = pending.pop()
        try:
            with os.scandir(folder / relative if relative else folder) as it:
                children = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            raise UnreadableFile(f"the folder could not be read ({exc.strerror})") from None
        seen += len(children)
        if seen > MAX_FILES:
            raise UnreadableFile(f"the submission holds more than {MAX_FILES} files")
        for child in children:
            path = f"{relative}/{child.name}" if relative else child.name
            mode = child.stat(follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode):
                if child.name not in IGNORED_DIRS:
                    pending.append(path)
            elif stat.S_ISREG(mode):
                listing.files.append(path)
            else:
                listing.refused.append(refusal(untrusted.name(path), mode))
    listing.files.sort()
    return listing
