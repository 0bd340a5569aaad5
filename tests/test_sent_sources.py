"""Code sent into a worker lives in files: sent_to_worker/<name>.py beside its
sender, read as text by engine/driving/sent.py's sent_source.

* every sent file compiles, is read by one sender and is shipped (Gradescope
  zip, cluster bundle) at the place its sender reads it;
* none is a module of the grader (never imported, never collected by pytest)
  nor readable by a worker, and none holds a reference solution;
* no Python source is written as a string literal in the package any more
  (files that other code owns are listed below, each with why).
"""
from __future__ import annotations

import ast
import fnmatch
import textwrap
import tomllib
from pathlib import Path

import pytest

from autograder import paths, registry
from autograder.cluster import bundle
from autograder.engine.driving.sent import FOLDER, sent_source
from autograder.gradescope import package

SOURCE_STRINGS_ELSEWHERE = {
    "*/examples.py": "demo submissions: student answers written into notebooks",
    "build/transforms.py": "cells written into the student's notebook",
    "build/scaffold.py": "templates of the files a new assignment starts from",
    "build/stand_ins.py": "the stand-ins' cells written into the notebooks build's self-check grades",
    "audit/assumptions.py": "the wrapper cells of the assumption variants the audit grades",
    "hw4_bert_finetuning/common.py": "PROVIDED_ATTENTION, the notebook's provided class",
}
"""Files of the package whose Python-source strings are not code sent into a worker
(or are another change's to move), relative to autograder/."""

MIN_LINES = 4
"""A source string has at least this many lines that are not blank: shorter
ones are arguments (probe.py's three-line PROBE_CELL, run at every sandbox choice)."""


def sent_files() -> list[Path]:
    return sorted(paths.PACKAGE.rglob(f"{FOLDER}/*.py"))


def package_modules() -> list[Path]:
    return sorted(paths.PACKAGE.rglob("*.py"))


def sends(path: Path) -> list[tuple[Path, str]]:
    """(the sent file, its name) of every sent_source call in `path`: the
    arguments must be __file__ and a literal name, so that this scan sees them."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and getattr(node.func, "id",
                                                  getattr(node.func, "attr", None)) == "sent_source":
            where, name = (node.args + [None, None])[:2]
            assert isinstance(where, ast.Name) and where.id == "__file__" \
                and isinstance(name, ast.Constant) and isinstance(name.value, str), \
                f"{paths.relative(path)}:{node.lineno}: sent_source(__file__, 'name') expected"
            found.append((path.parent / FOLDER / f"{name.value}.py", name.value))
    return found


def test_every_sent_file_compiles_and_says_who_sends_it():
    assert len(sent_files()) >= 10
    for path in sent_files():
        tree = compile(path.read_text(encoding="utf-8"), str(path), "exec", ast.PyCF_ONLY_AST)
        assert ast.get_docstring(tree), f"{paths.relative(path)}: no docstring"
        compile(tree, str(path), "exec")


def test_the_loader_reads_every_sent_file_for_one_sender():
    """Each call names a file that exists and reads its text; each file is read by
    exactly one call (a file nobody sends is dead code)."""
    calls = [(sender, *call) for sender in package_modules() for call in sends(sender)]
    targets = [target for _, target, _ in calls]
    assert sorted(targets) == sent_files(), "sent files and sent_source calls differ"
    for sender, target, name in calls:
        assert sent_source(str(sender), name) == target.read_text(encoding="utf-8")
    with pytest.raises(FileNotFoundError):
        sent_source(str(paths.PACKAGE / "testing.py"), "no_such_file")
    with pytest.raises(ValueError):
        sent_source(str(paths.PACKAGE / "testing.py"), "../testing")


def test_sent_files_are_not_modules_of_the_grader():
    """No __init__.py beside them, no import of them anywhere (package or tests),
    names pytest never collects, and no sent folder a worker can read."""
    assert not list(paths.PACKAGE.rglob(f"{FOLDER}/__init__.py"))
    importers = []
    for path in package_modules() + sorted((paths.ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            importers += [f"{paths.relative(path)}:{node.lineno}" for n in names
                          if FOLDER in n.split(".")]
    assert not importers
    options = tomllib.loads((paths.ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    patterns = options["ini_options"].get("python_files", ["test_*.py", "*_test.py"])
    collected = [p for p in sent_files() if any(fnmatch.fnmatch(p.name, pat) for pat in patterns)]
    assert not collected
    secret = paths.secret_paths()
    assert all(any(p.is_relative_to(s) for s in secret) for p in sent_files())


def _bodies(tree: ast.AST) -> dict[str, str]:
    """Each function's and class's body, as the AST's dump (names and layout aside)."""
    return {ast.dump(ast.Module(body=n.body, type_ignores=[])): n.name for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def test_no_sent_file_holds_a_reference_solution():
    """Nothing sent defines a name of a reference (a stub or its helpers) or repeats
    the body of one of its functions: what a worker receives is the student's."""
    names, bodies = set(), {}
    for a in registry.all_assignments():
        if a.reference.exists():
            tree = ast.parse(a.reference.read_text())
            names |= {n.name for n in tree.body
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
            bodies |= _bodies(tree)
    assert "greedy_decode" in names and bodies
    for path in sent_files():
        tree = ast.parse(path.read_text())
        defined = {n.name for n in ast.walk(tree)
                   if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        assert not defined & names, f"{paths.relative(path)}: {sorted(defined & names)}"
        assert not set(_bodies(tree)) & set(bodies), paths.relative(path)


def test_sent_files_are_shipped_where_their_senders_read_them():
    """The Gradescope zip and the cluster bundle hold each sent file at the same place
    beside its sender (the shipped sender reads the shipped copy)."""
    engine = set(package.engine_files())
    by_assignment: dict[str, list[Path]] = {}
    for path in sent_files():
        owner = path.relative_to(paths.PACKAGE).parts[0]
        if owner in registry.ids():
            by_assignment.setdefault(owner, []).append(path)
        else:
            assert path in engine, paths.relative(path)
    assert by_assignment
    for assignment_id, files in by_assignment.items():
        zipped = {name for name, _ in package.package_files(assignment_id)}
        shipped = bundle.make(assignment_id)["files"]
        for path in files:
            assert path.relative_to(paths.ROOT).as_posix() in zipped
            name = path.relative_to(paths.PACKAGE / assignment_id).as_posix()
            assert shipped[name] == path.read_bytes()


def python_sources(path: Path) -> list[int]:
    """Lines of `path` where a string literal (not a docstring) holds a Python program:
    at least MIN_LINES lines that compile and define or import something."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and n.body and isinstance(n.body[0], ast.Expr)
                  and isinstance(n.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):  # an f-string: its holes as names
            text = "".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            text = node.value
        else:
            continue
        if sum(1 for line in text.splitlines() if line.strip()) < MIN_LINES \
                or not ("def " in text or "import " in text):
            continue
        try:
            compile(textwrap.dedent(text), "<string>", "exec")
        except (SyntaxError, ValueError):
            continue  # prose, CSS, HTML, a template
        found.append(node.lineno)
    return sorted(set(found))  # an f-string's parts are walked too


def test_no_python_source_is_a_string_literal_in_the_package():
    """Code sent into a worker is a file that ruff reads, not a string."""
    found = []
    for path in package_modules():
        relative = path.relative_to(paths.PACKAGE).as_posix()
        if not any(fnmatch.fnmatch(relative, pattern) for pattern in SOURCE_STRINGS_ELSEWHERE):
            found += [f"{relative}:{line}" for line in python_sources(path)]
    assert not found, f"move these into {FOLDER}/ files read by sent_source: {found}"


def test_the_scan_finds_a_planted_source(tmp_path):
    """A planted probe (plain and f-string) is found; prose, CSS, a one-liner and a
    docstring that is code (it would compile) are not."""
    planted = tmp_path / "planted.py"
    planted.write_text(textwrap.dedent('''\
        """Module docstring.

        def shown(x):
            return x
        """
        PROBE = """
        import numpy as np
        def run(f):
            z = np.zeros(3)
            return f(z)
        """
        SHAPED = f"""
        import numpy as np
        def run(f):
            z = np.zeros({3})
            return f(z)
        """
        CSS = """
        body { margin: 0; }
        p { color: red; }
        div { padding: 1em; }
        """
        PROSE = """
        Say how to import a notebook
        and def ine a function
        in words.
        """
        ONE = "import os\\n"


        def f():
            """
            import os
            def g():
                sep = os.sep
                return sep
            """
        '''))
    assert python_sources(planted) == [6, 12]
