"""Opening a submitted zip with what zipfile will read bounded first.

zipfile.ZipFile reads a zip's whole central directory and builds an entry
for every member before it answers anything: a 216 MB zip of 2.4 million
empty members took the grader to 1.6 GB and 28 s. What must stay true:
before ZipFile is made, the directory's size and member count are within
bounds, as the zip's end records give them, read by the very function
ZipFile reads them with (so the figures judged are the ones it would use);
a member is decompressed from at most max_member_bytes of its bounded size
(ZipFile reads a member through the compressed size the directory declares).
Beyond a bound the zip is refused with a message, at the cost of its own
submission.
"""
from __future__ import annotations

import zipfile
from typing import BinaryIO

MAX_MEMBERS = 10_000
"""Members of one zip, as many files as a submission folder may hold (engine/intake/files.py)."""
MAX_DIRECTORY_BYTES = 2 * 2**20
"""The zip's list of members: 200 bytes each (an otter export's takes 300 in all),
so however its count lies, ZipFile builds at most ~45,000 entries (20 MB, 0.2 s)."""


class ZipRefused(Exception):
    """The zip is beyond what is read; the message is for the student."""


def open_bounded(raw: BinaryIO) -> zipfile.ZipFile:
    """The zip of file `raw`, opened only once its directory is judged small
    enough; raises ZipRefused, or zipfile.BadZipFile for what is not a zip."""
    try:
        # ZipFile's own first step (a private function, stable since Python 2):
        # the bound judges the figures ZipFile would read
        end = zipfile._EndRecData(raw)
    except OSError:
        end = None
    if not end:
        raise zipfile.BadZipFile("File is not a zip file")
    members, size = end[zipfile._ECD_ENTRIES_TOTAL], end[zipfile._ECD_SIZE]
    if members > MAX_MEMBERS or size > MAX_DIRECTORY_BYTES:
        raise ZipRefused(_TOO_MANY)
    zf = zipfile.ZipFile(raw)
    if len(zf.infolist()) > MAX_MEMBERS:  # its count said fewer
        zf.close()
        raise ZipRefused(_TOO_MANY)
    return zf


_TOO_MANY = (f"the zip holds more than {MAX_MEMBERS:,} files (or a list of them larger than "
             f"{MAX_DIRECTORY_BYTES // 2**20} MB), so it was not opened: submit the notebook "
             "itself, or the zip the notebook's export cell makes")


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int, label: str) -> bytes:
    """The bytes of member `info`, at most `limit` of them, decompressed from at
    most max_member_bytes(limit); raises ZipRefused."""
    if info.file_size > limit or info.compress_size > max_member_bytes(limit):
        raise ZipRefused(f"{label} in the zip is larger than {limit // 2**20} MB")
    with zf.open(info) as f:
        data = f.read(limit + 1)  # bounded even if the header lies
    if len(data) > limit:
        raise ZipRefused(f"{label} in the zip is too large")
    return data


def max_member_bytes(limit: int) -> int:
    """The compressed bytes a member of at most `limit` bytes may take: stored, or
    deflated data that would not compress (a few bytes more per 16 KB block)."""
    return limit + limit // 64 + 4096
