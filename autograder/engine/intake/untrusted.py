"""Text a submission controls, made safe once, where it enters the trusted side.

Exception messages, type and class names, handle type names, notebook output,
names of files and notebooks, what an LMS export says about a student: all of
it is chosen by the student. Each such string passes through `text` (multi-line)
or `name` (one line) before the grader keeps it. What must stay true of the
result:

* it encodes as UTF-8 (a lone surrogate, which JSON can carry, becomes U+FFFD);
* it holds no terminal escape sequence (CSI, OSC, DCS...: removed whole, not
  just their ESC) and no control character but newline and tab in `text`
  (carriage returns become newlines), nor the bidirectional overrides that
  reorder what a terminal or an editor shows;
* it is at most `limit` characters (the caps are below, in one place).

Sinks still escape for their own medium (HTML, Markdown, CSV, matplotlib, the
terminal): this module makes text harmless to keep, not to interpret.
"""
from __future__ import annotations

import re

NAME_CHARS = 200
"""A type or class name, a handle's type, a file name, a metadata field."""
MESSAGE_CHARS = 2000
"""An exception message, a cell's note, an error about a submission."""
OUTPUT_CHARS = 65536
"""The notebook's printed output kept per submission."""
FREE_TEXT_CHARS = 20000
"""One free-response answer of an exam."""

_WORK_FACTOR = 8
"""Only the first limit * _WORK_FACTOR characters are examined: the cost of
cleaning never depends on how much the student sent."""

_SEQUENCES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"                      # CSI: colours, cursor, clear
    r"|(?:\x1b[\]P^_X]|[\x90\x98\x9d\x9e\x9f])"                # OSC, DCS, PM, APC, SOS ...
    r"[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"                   # ... up to their terminator
    r"|\x1b[ -/]*[0-~]")                                        # other ESC sequences
_SURROGATES = re.compile("[\ud800-\udfff]")
_BIDI = "\u202a-\u202e\u2066-\u2069"
_CONTROLS = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
_LINE_CONTROLS = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")
_OBEYED = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\ud800-\udfff]")
CUT = "\n[... cut: longer than the grader keeps]"


def text(value, limit: int = MESSAGE_CHARS) -> str:
    """`value` as safe multi-line text of at most `limit` characters."""
    raw, cut = _window(value, limit)
    raw = raw.replace("\r\n", "\n").replace("\r", "\n")
    cleaned = _CONTROLS.sub("", _SEQUENCES.sub("", raw))
    if len(cleaned) <= limit and not cut:
        return cleaned
    return cleaned[:max(0, limit - len(CUT))] + CUT


def name(value, limit: int = NAME_CHARS) -> str:
    """`value` as safe single-line text of at most `limit` characters
    (newlines and tabs become spaces)."""
    raw, cut = _window(value, limit)
    raw = raw.replace("\r\n", " ").replace("\t", " ").replace("\n", " ").replace("\r", " ")
    cleaned = _LINE_CONTROLS.sub("", _SEQUENCES.sub("", raw))
    if len(cleaned) <= limit and not cut:
        return cleaned
    return cleaned[:limit - 1] + "\u2026"


def _window(value, limit: int) -> tuple[str, bool]:
    """The part of `value` that is examined (lone surrogates replaced), and
    whether anything was left out."""
    s = value if isinstance(value, str) else "" if value is None else str(value)
    width = limit * _WORK_FACTOR
    return _SURROGATES.sub("\ufffd", s[:width]), len(s) > width


def visible(value: str) -> str:
    """For a sink that would obey them (the terminal): every control or
    bidirectional character and lone surrogate shown as an escape ("\\x1b"),
    newlines and tabs kept. Text that went through `text` or `name` has none."""
    return _OBEYED.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace")
                       .decode("ascii"), value)
