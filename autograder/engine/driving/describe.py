"""Calls described for the student: "mask_tokens(array (32, 1024) int64, 50, ...)".

A hidden test's call into the student's code is named in messages with its
arguments abbreviated: shapes and dtypes for arrays and tensors, values for
scalars and short sequences, the type for anything else. The arguments are
the grader's own inputs (or handles, whose type names are cleaned where they
arrive), and the text stays short: never an answer key, never a wall of numbers.
"""
from __future__ import annotations

import numbers

import numpy as np

from autograder.engine.numerics import torch  # None without torch (numpy-only installations)

MAX_CHARS = 200
"""Length of a whole call's text; longer ones end with an ellipsis."""
SHORT_SEQUENCE = 6
"""Sequences of at most this many scalars are shown whole."""


def call(name: str, args: tuple = (), kwargs: dict | None = None) -> str:
    """`name(arg, ..., key=arg)` with each argument abbreviated."""
    parts = [value(a) for a in args] + [f"{k}={value(v)}" for k, v in (kwargs or {}).items()]
    text = f"{name}({', '.join(parts)})"
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS - 2] + "…)"


def value(v) -> str:
    """One argument, abbreviated."""
    if isinstance(v, np.ndarray):
        return f"array {tuple(v.shape)} {v.dtype}"
    if torch is not None and isinstance(v, torch.Tensor):
        return f"tensor {tuple(v.shape)} {str(v.dtype).removeprefix('torch.')}"
    if v is None or isinstance(v, (bool, np.bool_)):
        return repr(bool(v)) if v is not None else "None"
    if isinstance(v, numbers.Integral):
        return repr(int(v))
    if isinstance(v, numbers.Real):
        return repr(float(v))
    if isinstance(v, str):
        return repr(v) if len(v) <= 30 else repr(v[:27]) + "…"
    if isinstance(v, (list, tuple)):
        return _sequence(v)
    if isinstance(v, dict):
        return f"dict of {len(v)}"
    type_name = getattr(v, "type_name", None)  # a handle to an object in the worker
    return f"<{type_name}>" if isinstance(type_name, str) else f"<{type(v).__name__}>"


def _sequence(v) -> str:
    kind = type(v).__name__
    if len(v) <= SHORT_SEQUENCE and all(isinstance(x, (numbers.Number, str)) or x is None
                                        for x in v):
        inner = ", ".join(value(x) for x in v)
        return f"[{inner}]" if kind == "list" else f"({inner}{',' if len(v) == 1 else ''})"
    return f"{kind} of {len(v)}"
