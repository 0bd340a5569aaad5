"""Code written once, pasted by `build` where a master shows it.

A line of a master (at the start of the line, in a code cell)

    # build: paste TinySelfAttn from autograder/hw4_bert_finetuning/provided.py

is replaced, before otter assign runs, by the text of those top-level
definitions of that file (a path from the repository's root), exactly as
written there: from the first named definition's first line (its decorators
included) to the last one's last line, comments and blank lines between them
included. The names must be consecutive statements of the file, in that
order, so that nothing between them is dropped or pasted unasked. The source
is real Python (linted, imported or sent as it is); the master never holds
its own copy, so there is nothing to keep equal.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from autograder import paths
from autograder.build.transforms import BuildError

PASTE = re.compile(r"^# build: paste (\w+(?:, *\w+)*) from (\S+)[ \t]*$", re.M)


def definitions(path: Path, names: list[str]) -> str:
    """The exact text of the consecutive top-level definitions `names` of the
    Python file `path`, without a final newline (BuildError if one is missing
    or they are not consecutive)."""
    text = path.read_text()
    where = paths.relative(path)
    try:
        body = ast.parse(text, where).body
    except SyntaxError as exc:
        raise BuildError(f"{where} is not valid Python: {exc}") from None
    index = {name: i for i, node in enumerate(body) for name in _defined(node)}
    missing = [n for n in names if n not in index]
    if missing:
        raise BuildError(f"{where} has no top-level definition of {', '.join(missing)}")
    first, last = index[names[0]], index[names[-1]]
    if [index[n] for n in names] != list(range(first, last + 1)):
        raise BuildError(f"{where}: {', '.join(names)} are not consecutive statements "
                         "in that order (nothing may stand between them)")
    start = min([body[first].lineno] + [d.lineno for d in getattr(body[first], "decorator_list", [])])
    return "\n".join(text.splitlines()[start - 1:body[last].end_lineno])


def _defined(node: ast.stmt) -> list[str]:
    """The names a top-level statement defines (def, class, NAME = ...)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [t.id for t in targets if isinstance(t, ast.Name)]
    return []


def sources(master_text: str) -> list[Path]:
    """The files a master pastes from, in order of their first paste."""
    found = [_source(m.group(2)) for m in PASTE.finditer(master_text)]
    return list(dict.fromkeys(found))


def _source(name: str) -> Path:
    path = (paths.ROOT / name).resolve()
    if paths.ROOT not in path.parents or not path.is_file():
        raise BuildError(f"`# build: paste ... from {name}`: no such file in the repository")
    return path


def filled(master_text: str) -> str:
    """The master's text with every paste line replaced by what it names."""
    return PASTE.sub(lambda m: definitions(_source(m.group(2)),
                                           [n.strip() for n in m.group(1).split(",")]),
                     master_text)
