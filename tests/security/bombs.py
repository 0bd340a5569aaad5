"""Submissions that are small on disk and large to read: built byte by byte,
in seconds, for the attack corpus (tests/security/test_integrity.py), the
malformed-input tests and scripts/hostile_figures.py."""
from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import nbformat


def values_bomb(path: Path, cells: list[str], count: int) -> Path:
    """A notebook of `cells` whose first cell's metadata holds `count` empty
    lists: 3 bytes of text each, about 72 bytes each once parsed."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.cells[0].metadata["x"] = "LISTS"
    text = nbformat.writes(nb).replace('"LISTS"', "[" + "[]," * (count - 1) + "[]]", 1)
    json.loads(text)  # still valid JSON
    path.write_text(text)
    return path


def member_bomb(path: Path, notebook: bytes, count: int, stated: int | None = None) -> Path:
    """A zip holding hw1_attention.ipynb (`notebook`), then `count` empty stored
    members (90 bytes each: 2.4 million make 216 MB); its end records say
    `stated` members (default: the truth), zip64 records included."""
    local, central, offset = [], [], 0
    for name, data in [(b"hw1_attention.ipynb", notebook)] + [(b"%07d" % i, b"")
                                                            for i in range(count)]:
        crc = zlib.crc32(data)
        local.append(struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 0, 0, 0, crc, len(data),
                                 len(data), len(name), 0) + name + data)
        central.append(struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, crc,
                                   len(data), len(data), len(name), 0, 0, 0, 0, 0, offset) + name)
        offset += len(local[-1])
    directory = b"".join(central)
    n = count + 1 if stated is None else stated
    end64 = struct.pack("<4sQ2H2I4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, n, n, len(directory),
                        offset)
    locator = struct.pack("<4sIQI", b"PK\x06\x07", 0, offset + len(directory), 1)
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, min(n, 0xFFFF), min(n, 0xFFFF),
                      min(len(directory), 0xFFFFFFFF), min(offset, 0xFFFFFFFF), 0)
    with open(path, "wb") as f:
        f.write(b"".join(local) + directory + end64 + locator + end)
    return path
