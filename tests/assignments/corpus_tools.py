"""The corpus of correct and buggy variants, graded (its headers are read by
autograder/corpus.py). Used by tests/assignments/test_corpus.py and by
scripts/corpus_failures.py (which prints what the tests fail now, so the lists
are easy to review and regenerate).
"""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from autograder import protocol
from autograder.corpus import MEASURE, TUNE, Declared, cells, declared, submission_id, variants  # noqa: F401
from autograder.engine import assignment as assignment_mod
from tests.conftest import grade, write_notebook

CORPUS = Path(__file__).parent / "corpus"
RAISES = "raises__everywhere"
STAND_IN = "stand_in__"


def grade_corpus(assignment_id: str, workdir: Path, extra: dict[str, list[str]] | None = None):
    """Grade every variant of one assignment in one batch, each as the reference
    solution plus the variant as a second cell, beside the `extra` notebooks
    ({id: cells}); (assignment, {path: result}, {extra id: result})."""
    subs = workdir / "subs"
    subs.mkdir(parents=True)
    a = assignment_mod.load(assignment_id)
    reference = inspect.getsource(a.reference)
    paths = variants(assignment_id)
    for p in paths:
        write_notebook(subs / f"{submission_id(p)}.ipynb", cells(p, reference))
    for name, own in (extra or {}).items():
        write_notebook(subs / f"{name}.ipynb", own)
    results = grade(assignment_id, subs, workdir / "out")
    return a, {p: results[submission_id(p)] for p in paths}, {n: results[n] for n in extra or {}}


def failed_tests(result) -> list[tuple[str, str]]:
    """(question, test name) of each failed test, in grading order."""
    return [(t.question, t.name) for t in result.tests if t.status == "failed"]


class Graded:
    """Each assignment's whole corpus graded once (with the raise-everywhere
    notebook), and every string the grader sent its workers meanwhile (but the
    notebooks' own cells). Shared by the corpus and snapshot tests (the
    session fixture `graded` of tests/conftest.py)."""

    def __init__(self, tmp_path_factory):
        self.tmp = tmp_path_factory
        self.cache: dict = {}
        self.texts: dict[str, list[str]] = {}

    def __call__(self, assignment_id: str, path: Path):
        a, results, _ = self._graded(assignment_id)
        return a, results[path]

    def results(self, assignment_id: str) -> dict:
        """{path: result} of every variant."""
        return self._graded(assignment_id)[1]

    def raising(self, assignment_id: str):
        return self._graded(assignment_id)[2][RAISES]

    def stand_ins(self, assignment_id: str) -> dict:
        """{kind: result} of the notebooks whose every stub is a stand-in of that kind
        (stand_ins), the raise-everywhere one's as RAISES."""
        extra = self._graded(assignment_id)[2]
        return {name.removeprefix(STAND_IN): result for name, result in extra.items()
                if name.startswith(STAND_IN) or name == RAISES}

    def sent(self, assignment_id: str) -> list[str]:
        self._graded(assignment_id)
        return self.texts[assignment_id]

    def _graded(self, assignment_id: str):
        if assignment_id not in self.cache:
            a = assignment_mod.load(assignment_id)
            reference = inspect.getsource(a.reference)
            texts = self.texts.setdefault(assignment_id, [])
            extra = {RAISES: [raise_everywhere(reference)]}
            extra.update({STAND_IN + kind: [reference, cell]
                          for kind, cell in stand_ins(reference, a.questions).items()})
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(protocol, "send_frame", _recording(protocol.send_frame, texts))
                self.cache[assignment_id] = grade_corpus(
                    assignment_id, self.tmp.mktemp(assignment_id), extra)
        return self.cache[assignment_id]


def _recording(send_frame, texts: list[str]):
    """send_frame, keeping every string of every request but the notebook's cells."""
    def send(sock, header, buffers=()):
        if header.get("op") != "run_cell":
            texts.extend(_strings(header))
        return send_frame(sock, header, buffers)
    return send


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def raise_everywhere(reference: str) -> str:
    """A notebook cell defining every function and class of the reference so
    that calling it raises ValueError."""
    raises = "raise ValueError('no answer')"
    cells = []
    for node in ast.parse(reference).body:
        if isinstance(node, ast.FunctionDef):
            cells.append(f"def {node.name}(*args, **kwargs):\n    {raises}\n")
        elif isinstance(node, ast.ClassDef):
            cells.append(f"class {node.name}:\n    def __init__(self, *args, **kwargs):\n"
                         f"        {raises}\n")
    return "\n\n".join(cells)


STAND_IN_KINDS = ("untouched", "raises", "echo", "zeros", "ones")
"""Generic stand-ins of a stub (stand_ins): its body left as the notebook gives it
(None, a module with no layers), NotImplementedError, its first argument returned
(a module with no layers returning its input), or the reference's answer with every
number made 0, or 1 (a module whose forward does that to the reference's)."""

_ANSWER_AS = '''
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


def stand_ins(reference: str, questions) -> dict[str, str]:
    """{kind: a notebook cell} making every stub among `questions` that the reference
    defines (a function or a class) the stand-in of that kind (STAND_IN_KINDS); the
    cell goes after the reference's own, whose answers zeros and ones read."""
    stubs = [node for node in ast.parse(reference).body
             if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in questions]
    return {kind: "\n\n".join([_ANSWER_AS] + [_stand_in(node, kind) for node in stubs])
            for kind in STAND_IN_KINDS}


def _stand_in(node, kind: str) -> str:
    name = node.name
    if isinstance(node, ast.FunctionDef):
        body = {"untouched": "return None", "raises": "raise NotImplementedError",
                "echo": "return args[0] if args else None",
                "zeros": f"return _answer_as(_reference_{name}(*args, **kwargs), 0)",
                "ones": f"return _answer_as(_reference_{name}(*args, **kwargs), 1)"}[kind]
        return f"_reference_{name} = {name}\ndef {name}(*args, **kwargs):\n    {body}\n"
    module = any(ast.unparse(b).endswith("Module") for b in node.bases)
    base = "torch.nn.Module" if module else "object"
    init = ("        raise NotImplementedError\n" if kind == "raises" else
            "        super().__init__()\n")
    forward = {"untouched": "return None", "raises": "return None",
               "echo": "return args[0] if args else None",
               "zeros": "return _answer_as(super().forward(*args, **kwargs), 0)",
               "ones": "return _answer_as(super().forward(*args, **kwargs), 1)"}[kind]
    if kind in ("zeros", "ones"):  # the reference's layers, its answers made constant
        return (f"_reference_{name} = {name}\nclass {name}(_reference_{name}):\n"
                f"    def forward(self, *args, **kwargs):\n        {forward}\n")
    return (f"import torch\nclass {name}({base}):\n"
            f"    def __init__(self, *args, **kwargs):\n{init}"
            f"    def forward(self, *args, **kwargs):\n        {forward}\n")
