"""Assumption variants: the reference, correct but for one assumption real code makes.

A mutant changes one token; a real student's answer makes one *assumption* and is
otherwise right: it handles only the rank the lesson shows, it crashes on one edge,
or it answers in a shape of its own. Such an answer should lose the points of the
test about that assumption, and no others. `audit` grades one variant per stub and
kind below (each the reference with a last cell wrapping the stub) and judges it:

    rank       answers only arrays of the ranks the lesson uses ([lesson] in the
               assignment's mutants.toml, per stub: one rank per positional argument,
               or none for any), raising elsewhere;
    size-one   raises when an array or sequence argument has a dimension of size 1
               (a `.squeeze()` that also drops the batch, a loop that needs two items);
    empty      raises when an array or sequence argument has a dimension of size 0;
    shape      answers every array of its answer with an extra leading axis of size 1.

A rank, size-one or empty variant may lose the points of one test of its own question
(the test whose subject that is) and no more; the shape variant may lose any test of
its question but those about refusing bad input (a test that calls `expect_raises`):
it still refuses what it should. Points lost on another question are always beyond.
A class stub's variant wraps its forward; the variant of a stub no test exercises
that way loses nothing, and the audit says so.
"""
from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass

from autograder.engine.driving.sent import sent_source

KINDS = ("rank", "size-one", "empty", "shape")
SAID = {"rank": "answers only the ranks the lesson uses",
        "size-one": "raises on a dimension of size 1",
        "empty": "raises on an empty dimension",
        "shape": "answers with an extra leading axis"}

_HELPERS = sent_source(__file__, "assumption_helpers")
"""The wrappers' helpers, a cell before them."""


@dataclass(frozen=True)
class Assumption:
    stub: str
    kind: str
    cell: str
    """The notebook cell that makes the stub this variant (after the reference's)."""

    @property
    def id(self) -> str:
        return f"{self.stub}:assumes:{self.kind}"


def variants(reference: str, stubs: list[str], lesson: dict[str, list]) -> list[Assumption]:
    """Every assumption variant of the graded stubs the reference (a module's source)
    defines: rank variants only for the stubs `lesson` gives ranks for."""
    nodes = {node.name: node for node in ast.parse(reference).body
             if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    found = []
    for stub in stubs:
        if stub not in nodes:
            continue
        for kind in KINDS:
            if kind == "rank" and stub not in lesson:
                continue
            body = _wrapper(nodes[stub], kind, list(lesson.get(stub, ())))
            found.append(Assumption(stub, kind, _HELPERS + "\n\n" + body))
    return found


def _wrapper(node, kind: str, ranks: list) -> str:
    name, function = node.name, isinstance(node, ast.FunctionDef)
    call = f"_reference_{name}(*args, **kwargs)" if function else "super().forward(*args, **kwargs)"
    answer = f"_assumption_shaped({call})" if kind == "shape" else call
    body = (f"_assumption_check({kind!r}, {ranks!r}, args, kwargs)\n"
            f"return {answer}\n")
    if function:
        return (f"_reference_{name} = {name}\n\n\ndef {name}(*args, **kwargs):\n"
                + textwrap.indent(body, " " * 4))
    return (f"_reference_{name} = {name}\n\n\nclass {name}(_reference_{name}):\n"
            "    def forward(self, *args, **kwargs):\n" + textwrap.indent(body, " " * 8))


def refusing_tests(test_sources: dict[str, str]) -> set[str]:
    """question.test of every hidden test whose body calls expect_raises (its subject
    is refusing bad input), from {question: its test module's source}."""
    found = set()
    for question, source in test_sources.items():
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_") and \
                    re.search(r"\bexpect_raises\(", ast.get_source_segment(source, node) or ""):
                found.add(f"{question}.{node.name}")
    return found


def beyond(assumption: Assumption, shortfall: dict[str, float],
           refusing: set[str]) -> dict[str, float]:
    """The tests (question.test -> points) the variant lost points on beyond its
    assumption's own test, from what it lost on each (`shortfall`)."""
    own = {t: p for t, p in shortfall.items() if t.startswith(f"{assumption.stub}.")}
    extra = {t: p for t, p in shortfall.items() if t not in own}
    if assumption.kind == "shape":
        extra |= {t: p for t, p in own.items() if t in refusing}
    elif own:  # the one test of its question it may lose: the one it lost most on
        kept = max(own, key=own.get)
        extra |= {t: p for t, p in own.items() if t != kept}
    return extra
