"""Files the package writes: whole or not at all, zips with reproducible bytes,
and CSV that a spreadsheet shows as written.

What must stay true: a reader never sees half a file and a crash never leaves
one (a temporary file in the target's folder, renamed over it); a file gets
the permissions any tool's would (0666 less the umask: a TA in the
instructor's group reads the reports), unless its writer asks for others
(PRIVATE for the grader's own records); the same
contents give the same zip bytes (entries dated 1980-01-01, fixed modes);
every CSV the package writes goes through `csv_text`, so no cell of it is
ever run as a formula, whoever wrote the text.
"""
from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import secrets
import zipfile
from collections.abc import Iterable
from pathlib import Path

EPOCH = (1980, 1, 1, 0, 0, 0)
"""The date of every zip entry (the earliest a zip can hold)."""
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's list)."""
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
PRIVATE = 0o600
"""For files only the grader's user may read (what a run keeps for itself)."""


@contextlib.contextmanager
def atomic_writer(path: Path, mode: int | None = None):
    """A binary file that becomes `path` when the block ends without an error,
    with permission bits `mode`, or by default those the umask leaves of 0666."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _create_temporary(path, PRIVATE if mode is not None else 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _create_temporary(path: Path, mode: int) -> tuple[int, str]:
    """A new file beside `path`, open for writing, created with `mode` (which
    the kernel narrows by the umask, as for any tool's file; tempfile.mkstemp
    would make it 0600 whatever the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(6)}")
        try:
            return os.open(tmp, flags, mode), tmp
        except FileExistsError:
            continue  # another writer's name: draw again
    raise FileExistsError(f"no free temporary name beside {path}")


def write_atomic(path: Path, text: str, mode: int | None = None) -> None:
    """Write `text` (UTF-8, newlines as given) to `path` atomically (permission
    bits as atomic_writer's)."""
    with atomic_writer(path, mode) as f:
        f.write(text.encode("utf-8"))


def zip_entry(name: str, mode: int = 0o644) -> zipfile.ZipInfo:
    """A deflated regular-file entry with a fixed date and permission bits."""
    info = zipfile.ZipInfo(name, date_time=EPOCH)
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # unix, so that the modes are honoured
    return info


def spreadsheet_cell(value) -> str:
    """`value` as a CSV cell that a spreadsheet shows and never evaluates: text
    starting with one of FORMULA_START gets a leading apostrophe (which the
    spreadsheet hides), unless the whole cell is a number ("-0.5")."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_START) and not NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_text(rows: Iterable[Iterable]) -> str:
    """CSV of `rows` (the header first), one line each, every cell through
    spreadsheet_cell: how every CSV file of the package is made."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return buf.getvalue()


def spreadsheet_value(cell: str) -> str:
    """The text spreadsheet_cell made `cell` from (its leading apostrophe
    dropped): how a CSV the package wrote, or a spreadsheet saved, is read back."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_START) \
            and not NUMBER.fullmatch(cell[1:]):
        return cell[1:]
    return cell
