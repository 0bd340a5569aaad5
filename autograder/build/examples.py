"""Demo submissions in examples/<id>/, made from the built student notebook
so that they stay in sync with it (`build` rewrites them; or run
`python -m autograder.build.examples [ID ...]`).

An assignment has demo submissions when it has a module
`autograder/<id>/examples.py`, an autograder.hooks.Examples:

    variants(student, solution) -> dict[str, bytes]     # file name -> exact bytes

where a name is relative and may hold folders, with "/" between them
("123456/submission_metadata.json"), `student` is the built student notebook
and `solution` the solution notebook (nbformat notebooks, not to be
modified). Each variant fills the student notebook's answer cells (found by
the stub they define) with the solution's code, a mistaken version, or
nothing, and may add cells; the helpers for that are here (`answers_of`,
`fill`, `serialise`, `_zip_bytes`). A mistaken or differently written answer
is a variant of the corpus (tests/assignments/corpus/<id>/, whose tests
declare what each variant fails), read with `corpus_answers` or `corpus_cell`:
the demos show the very code the corpus grades, written once. The module's
docstring lists its files and the score each should get.
"""
from __future__ import annotations

import ast
import copy
import re
import sys
import zipfile
from pathlib import Path

import nbformat

from autograder import hooks, paths, registry
from autograder.build.copies import definitions
from autograder.build.transforms import BuildError, StableCellIds, serialise  # noqa: F401 (for the makers)
from autograder.writing import zip_entry


def _stub_of(source: str) -> str | None:
    m = re.match(r"\s*(?:def|class)\s+(\w+)", source)
    return m.group(1) if m else None


def answers_of(nb) -> dict[str, str]:
    """{stub name: source} of the cells that define a stub."""
    return {_stub_of(c.source): c.source for c in nb.cells
            if c.cell_type == "code" and _stub_of(c.source)}


def fill(student, answers: dict[str, str], extra: list[tuple[int, str]] = ()):
    """A copy of `student` with the answer cells of `answers` replaced and
    (position, source) code cells inserted."""
    nb = copy.deepcopy(student)
    for cell in nb.cells:
        if cell.cell_type == "code" and _stub_of(cell.source) in answers:
            cell.source = answers[_stub_of(cell.source)]
    for position, source in sorted(extra, reverse=True):
        nb.cells.insert(position, nbformat.v4.new_code_cell(source))
    return StableCellIds()(nb)


def _corpus_file(assignment_id: str, variant: str) -> tuple[Path, list[ast.stmt]]:
    path = registry.get(assignment_id).corpus / f"{variant}.py"
    if not path.is_file():
        raise BuildError(f"no corpus variant {paths.relative(path)}")
    body = ast.parse(path.read_text(), str(path)).body
    return path, [n for n in body if not isinstance(n, (ast.Import, ast.ImportFrom))]


def corpus_answers(assignment_id: str, *variants: str) -> dict[str, str]:
    """{stub name: answer cell} of corpus variants ("buggy/<name>" or
    "correct/<name>"): each top-level def or class exactly as the file writes
    it, with a final newline. A variant given to this may hold nothing else
    but its header comments and imports (the notebook's first cell imports),
    so that the cells are the whole variant."""
    answers = {}
    for variant in variants:
        path, statements = _corpus_file(assignment_id, variant)
        other = [n for n in statements if not isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        if other:
            raise BuildError(f"{paths.relative(path)} line {other[0].lineno}: a demo takes whole "
                             "answers, and this statement is neither an import, a def nor a class")
        answers |= {n.name: definitions(path, [n.name]) + "\n" for n in statements}
    return answers


def corpus_cell(assignment_id: str, variant: str) -> str:
    """A corpus variant as one cell: its text from its first statement that is
    not an import to its end, exactly (the header comments and imports left out)."""
    path, statements = _corpus_file(assignment_id, variant)
    if not statements:
        raise BuildError(f"{paths.relative(path)} holds nothing but imports")
    first = statements[0]
    start = min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])])
    return "".join(path.read_text().splitlines(keepends=True)[start - 1:])


def _zip_bytes(name: str, data: bytes) -> bytes:
    import io
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(zip_entry(name), data)
    return buf.getvalue()


def maker(assignment_id: str):
    """The `variants` function of autograder/<id>/examples.py (a hooks.Examples),
    or None when the assignment has no such module."""
    record = registry.get(assignment_id)
    if not record.has_examples:
        return None
    return hooks.load(f"{record.package}.examples", hooks.Examples).variants


def with_examples() -> list[str]:
    """The assignments with a master and an examples module."""
    return [a.id for a in registry.all_assignments() if a.has_master and a.has_examples]


def write_examples(assignment_id: str, student_bytes: bytes, solution) -> list[Path]:
    """Regenerate examples/<id>/ (only the files this module makes); [] when
    the assignment has no variants."""
    make = maker(assignment_id)
    if make is None:
        return []
    student = nbformat.reads(student_bytes.decode("utf-8"), as_version=4)
    folder = registry.get(assignment_id).examples
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in sorted(make(student, solution).items()):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    from autograder.build import solution_notebook, student_notebook
    missing = [a for a in argv if maker(a) is None]
    if missing:
        print(f"error: no autograder/<id>/examples.py for {', '.join(missing)} "
              f"(have: {', '.join(with_examples()) or 'none'})", file=sys.stderr)
        return 2
    for assignment_id in argv or with_examples():
        for path in write_examples(assignment_id, student_notebook(assignment_id),
                                   solution_notebook(assignment_id)):
            print(path.relative_to(paths.ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
