"""Generic stand-ins of an assignment's stubs: answers nobody wrote.

A hidden test that pays a stub which raises, hands back its input, or answers a
constant of the right shape pays for doing nothing: a test of rejecting bad input
that never first checks that a valid call answers is paid by `raise ValueError`;
a test judged on the student's own answers is paid by a constant. `build`'s
self-check (autograder.build.selfcheck) grades one notebook per kind below, each
the master's solution with `stand_ins(...)[kind]` as a last cell, and refuses a
test that gives such a notebook points, unless the test declares itself about
the answer's format only (autograder.checks.format_test), which a constant of the
right type and shape legitimately passes. The suite grades the same stand-ins
after the reference (tests/assignments/corpus_tools.py).

The stubs are the reference module's top-level functions and classes named as
questions: any assignment has them, so nothing here is written for one.
"""
from __future__ import annotations

import ast
from collections.abc import Iterable

KINDS = ("untouched", "raises", "echo", "zeros", "ones")
"""Generic stand-ins of a stub (stand_ins): its body left as the notebook gives it
(None; a class: a module with no layers answering None), an exception of every
type a test of bad input expects (ValueError, TypeError, IndexError, ...), its
first argument returned (a module with no layers returning its input), or the
right answer (computed on copies of the arguments) with every number made 0, or 1
(a class: the reference's layers, its forward's answer made so)."""

SAID = {"untouched": "answering None (a class: a module with no layers)",
        "raises": "raising everywhere",
        "echo": "returning its first argument",
        "zeros": "answering the right answer with every number made 0",
        "ones": "answering the right answer with every number made 1"}
"""What each kind does, as a sentence to an author says it (a stand-in ...)."""

_HELPERS = '''
class _NoAnswer(NotImplementedError, ValueError, TypeError, IndexError, KeyError,
                ZeroDivisionError, OverflowError, AssertionError):
    """Whatever a test of bad input expects: no answer, of every type."""


def _on_copies(function, args, kwargs):
    """function's answer for copies of the arguments (where they can be copied), so
    that a stand-in does none of the stub's work on what it is given (a model it
    should train, an array it should leave alone)."""
    import copy
    try:
        args, kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
    except Exception:
        pass
    return function(*args, **kwargs)


def _answer_as(value, fill):
    """value with every number made `fill` (its types, dtypes and shapes kept)."""
    import numpy as np
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and isinstance(value, torch.Tensor):
        return torch.full_like(value, fill)
    if isinstance(value, np.ndarray):
        return np.full_like(value, fill)
    if isinstance(value, (tuple, list)):
        return type(value)(_answer_as(v, fill) for v in value)
    if isinstance(value, (bool, np.bool_)):
        return bool(fill)
    if isinstance(value, (int, float, np.number)):
        return type(value)(fill)
    return value
'''


def stubs(reference: str, questions: Iterable[str]) -> list[str]:
    """The names of the functions and classes `reference` (a module's source)
    defines at top level that are questions, in its order."""
    questions = set(questions)
    return [node.name for node in ast.parse(reference).body
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in questions]


def defined(sources: Iterable[str]) -> set[str]:
    """The names notebook cells (their sources) define at top level with def or
    class; a cell Python cannot parse (a magic) defines none."""
    names = set()
    for source in sources:
        try:
            body = ast.parse(source).body
        except SyntaxError:
            continue
        names |= {node.name for node in body
                  if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    return names


def stand_ins(reference: str, questions: Iterable[str]) -> dict[str, str]:
    """{kind: a notebook cell} making every stub among `questions` that the reference
    defines (a function or a class) the stand-in of that kind (KINDS); the cell goes
    after the cell defining the right answer (the reference's or the solution's),
    whose answers zeros and ones read."""
    nodes = {node.name: node for node in ast.parse(reference).body
             if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    chosen = [nodes[name] for name in stubs(reference, questions)]
    return {kind: "\n\n".join([_HELPERS] + [_stand_in(node, kind) for node in chosen])
            for kind in KINDS}


def _stand_in(node, kind: str) -> str:
    name = node.name
    if isinstance(node, ast.FunctionDef):
        body = {"untouched": "return None", "raises": "raise _NoAnswer('no answer')",
                "echo": "return args[0] if args else None",
                "zeros": f"return _answer_as(_on_copies(_reference_{name}, args, kwargs), 0)",
                "ones": f"return _answer_as(_on_copies(_reference_{name}, args, kwargs), 1)"
                }[kind]
        return f"_reference_{name} = {name}\ndef {name}(*args, **kwargs):\n    {body}\n"
    module = any(ast.unparse(b).endswith("Module") for b in node.bases)
    base = "torch.nn.Module" if module else "object"
    init = ("        raise _NoAnswer('no answer')\n" if kind == "raises" else
            "        super().__init__()\n")
    forward = {"untouched": "return None", "raises": "return None",
               "echo": "return args[0] if args else None",
               "zeros": "return _answer_as(super().forward(*args, **kwargs), 0)",
               "ones": "return _answer_as(super().forward(*args, **kwargs), 1)"}[kind]
    if kind in ("zeros", "ones"):  # the reference's layers, its answers made constant
        return (f"_reference_{name} = {name}\nclass {name}(_reference_{name}):\n"
                f"    def forward(self, *args, **kwargs):\n        {forward}\n")
    return (("import torch\n" if module else "") + f"class {name}({base}):\n"
            f"    def __init__(self, *args, **kwargs):\n{init}"
            f"    def forward(self, *args, **kwargs):\n        {forward}\n")
